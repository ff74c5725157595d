import { Alert } from '@chakra-ui/react';
import { useTexts } from '../i18n';

/** The honest placeholder for a screen a later release builds: nothing here pretends to work. */
export function NotBuilt({ name }: { name: string }) {
  const { t } = useTexts();
  return (
    <Alert.Root status="info" variant="surface" data-testid="not-built">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('notBuilt.title', { name })}</Alert.Title>
        <Alert.Description>{t('notBuilt.body')}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
