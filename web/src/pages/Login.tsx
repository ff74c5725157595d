import { Alert, Box, Button, Card, Center, Field, Heading, Input, Separator, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate, type Location } from 'react-router';
import { t } from '../i18n';
import { errorText } from '../lib/api';
import { useAdminLogin } from '../lib/mutations';
import { useAuthUser } from '../lib/queries';

export default function Login() {
  const { data: user, isPending } = useAuthUser();
  const from = (useLocation().state as { from?: Location } | null)?.from;
  if (isPending) return null;
  if (user) return <Navigate to={from ? `${from.pathname}${from.search}` : '/'} replace />;
  return (
    <Center minH="100vh" p="4" bg="bg.subtle">
      <Card.Root w="full" maxW="md">
        <Card.Header>
          <Heading size="xl">{t('login.title')}</Heading>
          <Text color="fg.muted">{t('login.subtitle')}</Text>
        </Card.Header>
        <Card.Body>
          <Stack gap="5">
            {/* The gateway runs the OpenID Connect redirect, so this is a full-page navigation. */}
            <Button colorPalette="blue" onClick={() => window.location.assign('/api/login')}>
              {t('login.signIn')}
            </Button>
            <Separator />
            <LocalAdminForm />
          </Stack>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}

function LocalAdminForm() {
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useAdminLogin({ onSuccess: () => navigate('/', { replace: true }) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ username, password });
  };

  return (
    <Box as="form" onSubmit={submit}>
      <Stack gap="3">
        <Text fontSize="sm" color="fg.muted">{t('login.localAccount')}</Text>
        <Field.Root required>
          <Field.Label>{t('login.username')}</Field.Label>
          <Input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
        </Field.Root>
        <Field.Root required>
          <Field.Label>{t('login.password')}</Field.Label>
          <Input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field.Root>
        {login.isError && (
          <Alert.Root status="error" data-testid="login-error">
            <Alert.Indicator />
            <Alert.Title>{errorText(login.error, t('login.failed'))}</Alert.Title>
          </Alert.Root>
        )}
        <Button type="submit" variant="outline" disabled={login.isPending || !username || !password}>
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </Button>
      </Stack>
    </Box>
  );
}
