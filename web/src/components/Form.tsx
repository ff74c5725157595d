import { Box, Field, Stack, type BoxProps } from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';

/**
 * A form that never reloads the page: submit calls `onSubmit` (Enter in a field does too).
 * `noValidate`: the form says itself what is missing, with the product's texts, so the browser's
 * own bubble must not stop the submit (required fields keep their marker).
 */
export function Form({ onSubmit, children, gap = '3', noValidate, ...rest }: { onSubmit: () => void; children: ReactNode; gap?: string; noValidate?: boolean } & Omit<BoxProps, 'onSubmit'>) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Box as="form" onSubmit={submit} {...(noValidate ? { noValidate: true } : {})} {...rest}>
      <Stack gap={gap}>{children}</Stack>
    </Box>
  );
}

/** A labelled field: the label names the control; an error text is tied to it and marks it invalid. */
export function FormField({ label, required, error, helper, children }: { label: string; required?: boolean; error?: string | null; helper?: string; children: ReactNode }) {
  return (
    <Field.Root required={required} invalid={Boolean(error)}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}
