import { Alert } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** An error shown in the page; role="alert" makes screen readers announce it when it appears. */
export function ErrorAlert({ title, description, testId, ...rest }: { title: ReactNode; description?: ReactNode; testId?: string } & Alert.RootProps) {
  return (
    <Alert.Root status="error" role="alert" data-testid={testId} {...rest}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        {description && <Alert.Description>{description}</Alert.Description>}
      </Alert.Content>
    </Alert.Root>
  );
}
