import { Field, Flex, NativeSelect } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A list's filters above it: labelled fields side by side that wrap, each the full width on a phone. */
export function FilterBar({ testId, children }: { testId?: string; children: ReactNode }) {
  return (
    <Flex gap="3" wrap="wrap" align="flex-end" data-testid={testId}>
      {children}
    </Flex>
  );
}

/** One filter: its label names the control inside (a text input, a date). `width` from the small breakpoint up. */
export function FilterField({ label, width, children }: { label: string; width: string; children: ReactNode }) {
  return (
    <Field.Root w={{ base: 'full', sm: width }}>
      <Field.Label fontSize="sm">{label}</Field.Label>
      {children}
    </Field.Root>
  );
}

/** A filter chosen from a list (its `<option>`s are the children): the value goes to `onChange` as it is. */
export function FilterSelect({ label, width, name, value, onChange, children }: {
  label: string;
  width: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <FilterField label={label} width={width}>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field name={name} value={value} onChange={(event) => onChange(event.target.value)}>
          {children}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </FilterField>
  );
}
