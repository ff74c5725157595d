import { Button, Card, Heading, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { DEFAULT_TEST_USER_ID, type StreamingKeyView } from './api';
import { ExpiryFields, useFailureToast } from './fields';
import { extensionByKeyText, noExpiry } from './forms';
import { useExtendKey, useTestNotification } from './mutations';

/** Document 3 §2: extend a key by its text, and a test notification to a chat user. */
export function AdminTools({ keys }: { keys: readonly StreamingKeyView[] }) {
  const { t } = useTexts();
  return (
    <Card.Root size="sm" data-testid="admin-tools">
      <Card.Header>
        <Heading as="h2" size="md">{t('streamingKeys.toolsTitle')}</Heading>
      </Card.Header>
      <Card.Body>
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
          <ExtendByKeyText keys={keys} />
          <TestNotification />
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}

function ExtendByKeyText({ keys }: { keys: readonly StreamingKeyView[] }) {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const [text, setText] = useState('');
  const [choice, setChoice] = useState(noExpiry);
  const [problem, setProblem] = useState<string | null>(null);
  const extend = useExtendKey({
    onSuccess: (reply) => {
      notify({ title: t('streamingKeys.extended'), description: t('streamingKeys.extendedBody', { key: reply.data.key, date: format.dateTime(reply.data.expiresAt) }), type: 'success' });
      setText('');
      setChoice(noExpiry);
    },
    onError: failed('streamingKeys.extendFailed'),
  });
  const submit = () => {
    const request = extensionByKeyText(text, keys, choice);
    if ('problem' in request) return setProblem(t(request.problem));
    setProblem(null);
    extend.mutate(request);
  };
  return (
    <Form onSubmit={submit} aria-label={t('streamingKeys.extendByKey')} data-testid="extend-by-key">
      <Heading as="h3" size="sm">{t('streamingKeys.extendByKey')}</Heading>
      <FormField label={t('streamingKeys.keyText')}>
        <Input name="keyText" value={text} onChange={(event) => setText(event.target.value)} placeholder="SK-XXXXXXXXXX-NFX" fontFamily="mono" autoComplete="off" />
      </FormField>
      <ExpiryFields value={choice} onChange={setChoice} />
      {problem && <Text color="fg.error" role="alert">{problem}</Text>}
      <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={extend.isPending}>{t('streamingKeys.extend')}</Button>
    </Form>
  );
}

function TestNotification() {
  const { t } = useTexts();
  const failed = useFailureToast();
  const [userId, setUserId] = useState(DEFAULT_TEST_USER_ID);
  const send = useTestNotification({
    onSuccess: (reply) => notify({ title: t('streamingKeys.testSent'), description: t('streamingKeys.testSentBody', reply.data), type: 'success' }),
    onError: failed('streamingKeys.testFailed'),
  });
  return (
    <Form onSubmit={() => !send.isPending && send.mutate(userId.trim())} aria-label={t('streamingKeys.testTitle')} data-testid="test-notification">
      <Heading as="h3" size="sm">{t('streamingKeys.testTitle')}</Heading>
      <FormField label={t('streamingKeys.testUserId')} helper={t('streamingKeys.testHelper')}>
        <Input name="userId" value={userId} onChange={(event) => setUserId(event.target.value)} inputMode="numeric" autoComplete="off" />
      </FormField>
      <Stack align="flex-start">
        <Button type="submit" variant="outline" loading={send.isPending} loadingText={t('streamingKeys.sending')}>{t('streamingKeys.sendTest')}</Button>
      </Stack>
    </Form>
  );
}
