import { Button, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router';
import { usePageTitle } from '../components/PageHeader';
import { useTexts } from '../i18n';

export default function NotFound() {
  const { t } = useTexts();
  usePageTitle(t('notFound.title'));
  return (
    <Center minH="100vh" p="4" as="main">
      <Stack gap="3" textAlign="center" align="center">
        <Heading size="2xl" as="h1">{t('notFound.title')}</Heading>
        <Text color="fg.muted">{t('notFound.body')}</Text>
        <Button asChild variant="outline">
          <Link to="/">{t('notFound.home')}</Link>
        </Button>
      </Stack>
    </Center>
  );
}
