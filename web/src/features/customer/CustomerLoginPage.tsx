import { Badge, Button, Card, Center, Flex, Heading, Input, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { usePageTitle } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { serviceNames } from '../streaming-keys/api';
import { credentialsOf, loginFailureLines } from './login';
import { useCustomerLogin } from './mutations';
import { safeRedirect, serviceOfKey } from './service';

/**
 * /customer-login, public (document 3 §2): the account e-mail and the key. A link carrying both
 * (`?email=…&key=…`, as the chat sends it) signs in by itself, once; either way a customer lands on
 * the page the server names for the key's service.
 */
export default function CustomerLoginPage() {
  const { t } = useTexts();
  usePageTitle(t('customer.login.title'));
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [key, setKey] = useState(() => params.get('key') ?? '');
  const [missing, setMissing] = useState(false);
  const login = useCustomerLogin({ onSuccess: (reply) => navigate(safeRedirect(reply.redirectUrl, reply.service), { replace: true }) });
  const { mutate } = login;

  const linked = useRef(false);
  useEffect(() => {
    if (linked.current) return;
    linked.current = true;
    const fromLink = credentialsOf(params.get('email') ?? '', params.get('key') ?? '');
    if (!fromLink) return;
    mutate(fromLink);
    // The key stays in the form, not in the address bar (history, a shared screenshot).
    setParams({}, { replace: true });
  }, [params, setParams, mutate]);

  // Typing answers 'Please enter your email and key': the message goes until the next try.
  const edit = (set: (text: string) => void, text: string) => {
    set(text);
    setMissing(false);
  };
  const submit = () => {
    const credentials = credentialsOf(email, key);
    setMissing(!credentials);
    if (credentials && !login.isPending) login.mutate(credentials);
  };
  const service = serviceOfKey(key);
  const failure = login.isError ? loginFailureLines(login.error) : null;

  return (
    <Center minH="100dvh" p="4" bg="bg.subtle">
      <Card.Root w="full" maxW="md" as="main">
        <Card.Header>
          <Flex justify="space-between" align="start" gap="3" wrap="wrap">
            <Heading as="h1" size="xl">{t('customer.login.title')}</Heading>
            <LanguageSwitch />
          </Flex>
          <Text color="fg.muted">{t('customer.login.subtitle')}</Text>
        </Card.Header>
        <Card.Body>
          {/* noValidate: an empty field gets the product's message below, not the browser's bubble. */}
          <Form onSubmit={submit} gap="4" aria-label={t('customer.login.title')} noValidate>
            <FormField label={t('customer.login.email')} required>
              <Input name="email" inputMode="email" autoComplete="email" autoCapitalize="none" spellCheck={false} value={email} onChange={(event) => edit(setEmail, event.target.value)} placeholder="name@example.com" />
            </FormField>
            <FormField label={t('customer.login.key')} helper={service ? undefined : t('customer.login.keyHelper')} required>
              <Input name="key" autoComplete="off" autoCapitalize="characters" spellCheck={false} fontFamily="mono" value={key} onChange={(event) => edit(setKey, event.target.value)} placeholder="SK-XXXXXXXXXX-NFX" />
            </FormField>
            {service && (
              <Badge alignSelf="flex-start" colorPalette="blue" size="lg" data-testid="key-service">{t('customer.login.keyFor', { service: serviceNames[service] })}</Badge>
            )}
            {missing && <ErrorAlert testId="login-missing" title={t('customer.login.required')} />}
            {failure && !missing && <ErrorAlert testId="login-error" title={failure[0]} description={failure[1]} />}
            <Button type="submit" colorPalette="blue" loading={login.isPending} loadingText={t('customer.login.submitting')}>{t('customer.login.submit')}</Button>
          </Form>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
