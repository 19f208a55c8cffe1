import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { type DecimalRules, type ParsedDecimal, parseDecimal } from './decimal';

/**
 * A number field that keeps what is typed (2.5 stays 2.5), accepts the locale's decimal comma, and says under the
 * field why a value cannot be taken; the error shows once the person has left the field or tried to submit.
 */
export function DecimalInput({
  value,
  onChange,
  rules,
  showError,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange' | 'error'> & {
  value: string;
  onChange: (text: string) => void;
  rules?: DecimalRules;
  /** Show the error even before the field was left (after a submit attempt). */
  showError?: boolean;
}) {
  const [touched, setTouched] = useState(false);
  const parsed = parseDecimal(value, rules);
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      {...props}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={(e) => {
        setTouched(true);
        props.onBlur?.(e);
      }}
      error={showError || (touched && value.trim() !== '') ? parsed.error : undefined}
    />
  );
}

/** The parsed value of a DecimalInput's text, for the form's submit: `{ value }` or `{ error }`. */
export const readDecimal = (text: string, rules?: DecimalRules): ParsedDecimal => parseDecimal(text, rules);
