interface InstructorToggleProps {
  enabled: boolean;
  onChange: (enabled: boolean) => void;
}

/** A switch for instructor mode (speaker notes shown). */
export function InstructorToggle({ enabled, onChange }: InstructorToggleProps) {
  return (
    <label className="instructor-toggle" title="Show the speaker notes written for instructors">
      <input
        type="checkbox"
        role="switch"
        checked={enabled}
        onChange={(event) => {
          onChange(event.target.checked);
        }}
      />
      <span className="instructor-toggle__track" aria-hidden="true" />
      Instructor mode
    </label>
  );
}
