import { TextField } from '@/components/text-field';
import { toInputValue } from '@/lib/dates';

interface DueTimeFieldProps {
  label: string;
  /** The picker's wall-clock text ('' for none). */
  value: string;
  onChange: (value: string) => void;
  /** The id of the sentence that says which time zone it is read in. */
  helpId: string;
  autoFocus?: boolean;
}

/** A due time's picker, as assigning an exercise and changing its due time both show it: the
 *  browser's wall clock, nothing before now. */
export function DueTimeField({ label, value, onChange, helpId, autoFocus }: DueTimeFieldProps) {
  return (
    <TextField
      label={label}
      name="due_at"
      type="datetime-local"
      min={toInputValue(new Date())}
      value={value}
      aria-describedby={helpId}
      onChange={onChange}
      autoFocus={autoFocus}
    />
  );
}
