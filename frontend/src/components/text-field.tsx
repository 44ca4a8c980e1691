import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> & {
  label: ReactNode;
  value: string;
  /** The text as typed. */
  onChange: (value: string) => void;
};

/**
 * A label and the input it names, holding a string: the login, join and class forms each
 * wrote this pair out (an id made for it, the label's htmlFor, the input's value and an
 * onChange that keeps the text). Any other attribute goes to the input as given.
 */
export function TextField({ label, value, onChange, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        {...input}
        id={id}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
        }}
      />
    </>
  );
}
