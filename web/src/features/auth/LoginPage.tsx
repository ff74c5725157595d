import { Button, Card, Center, Flex, Heading, Input, Separator, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { usePageTitle } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { authPaths } from './api';
import { useAdminLogin, useSession } from './queries';
import { forgetReturnPath, rememberReturnPath, safeReturnPath } from './return-to';

/**
 * /login renders at once, before the session check answers; a signed-in visitor is sent on to
 * `?next=` (the page an expired session left), else to '/'.
 */
export default function LoginPage() {
  const { t } = useTexts();
  usePageTitle(t('login.title'));
  const session = useSession();
  const [params] = useSearchParams();
  const next = safeReturnPath(params.get('next'));
  if (session.state === 'signed-in') return <Navigate to={next ?? '/'} replace />;

  const signInWithProvider = () => {
    // The provider sends the browser back to '/': the guard finds the page there.
    rememberReturnPath(next);
    window.location.assign(authPaths.oidcLogin);
  };

  return (
    <Center minH="100vh" p="4" bg="bg.subtle" flexDirection="column" gap="4">
      <Card.Root w="full" maxW="md" as="main">
        <Card.Header>
          <Flex justify="space-between" align="start" gap="3">
            <Heading as="h1" size="xl">{t('login.title')}</Heading>
            <LanguageSwitch />
          </Flex>
          <Text color="fg.muted">{t('login.subtitle')}</Text>
        </Card.Header>
        <Card.Body>
          <Stack gap="5">
            <Button colorPalette="blue" onClick={signInWithProvider}>{t('login.signIn')}</Button>
            <Separator />
            <LocalAdminForm />
          </Stack>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}

function LocalAdminForm() {
  const { t } = useTexts();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // Signed in, the page above sends the user on; a page remembered for the provider's round trip is stale now.
  const login = useAdminLogin({ onSuccess: forgetReturnPath });

  return (
    <Form onSubmit={() => login.mutate({ username, password })}>
      <Text fontSize="sm" color="fg.muted">{t('login.localAccount')}</Text>
      <FormField label={t('login.username')} required>
        <Input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
      </FormField>
      <FormField label={t('login.password')} required>
        <Input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </FormField>
      {login.isError && <ErrorAlert testId="login-error" title={errorText(login.error, t('login.failed'))} />}
      <Button type="submit" variant="outline" disabled={login.isPending || !username || !password}>
        {login.isPending ? t('login.submitting') : t('login.submit')}
      </Button>
    </Form>
  );
}
