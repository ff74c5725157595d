import { Alert, Center, Heading } from '@chakra-ui/react';
import { usePageTitle } from '../../components/PageHeader';
import { useTexts } from '../../i18n';

/** Document 3 §6: what a signed-in non-admin sees here, instead of the dashboard's Access Denied. */
export default function AdminOnly() {
  const { t } = useTexts();
  usePageTitle(t('streamingKeys.adminOnlyTitle'));
  return (
    <Center minH="100vh" p="4">
      <Alert.Root status="error" maxW="lg" data-testid="admin-only">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title asChild>
            <Heading as="h1" size="md">{t('streamingKeys.adminOnlyTitle')}</Heading>
          </Alert.Title>
          <Alert.Description>{t('streamingKeys.adminOnlyBody')}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    </Center>
  );
}
