import { Button, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router';
import { t } from '../i18n';

export default function NotFound() {
  return (
    <Center minH="100vh" p="4">
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
