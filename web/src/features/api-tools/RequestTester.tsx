import { Badge, Box, Button, Flex, Heading, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { Form, FormField } from '../../components/Form';
import { JsonBlock } from '../../components/JsonBlock';
import { SectionCard } from '../../components/SectionCard';
import { useTexts } from '../../i18n';
import { RedirectNotFollowed } from '../../lib/api';
import { parseJson } from '../../lib/json';
import { DEFAULT_TESTER_PATH, testerMethods, type TesterMethod } from './api';
import { sameOriginPath, statusTone, tonePalette } from './model';
import { useApiCall } from './mutations';

type Result = { ok: true; status: number; body: unknown } | { ok: false; detail: string };

/**
 * Document 1's request tester: GET or POST, a path (default /api/prices), a JSON body for POST.
 * Send is disabled with an empty path; a path that is not on this origin and a body that is not
 * JSON are refused under their fields and nothing is sent.
 */
export function RequestTester() {
  const { t } = useTexts();
  const [method, setMethod] = useState<TesterMethod>('GET');
  const [path, setPath] = useState(DEFAULT_TESTER_PATH);
  const [body, setBody] = useState('');
  const [pathError, setPathError] = useState<string | null>(null);
  const [bodyError, setBodyError] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const call = useApiCall();

  const send = () => {
    if (call.isPending) return;
    const checked = sameOriginPath(path, window.location.origin);
    const parsed = method === 'POST' && body.trim() !== '' ? parseJson(body) : null;
    setPathError(checked.ok || checked.problem === 'empty' ? null : t(`apiTools.path.${checked.problem}`));
    setBodyError(parsed && !parsed.ok ? t('apiTools.invalidJson') : null);
    if (!checked.ok || (parsed && !parsed.ok)) return;
    setResult(null);
    call.mutateAsync({ method, path: checked.path, ...(parsed?.ok ? { body: parsed.value } : {}) }).then(
      ({ status, body: answer }) => setResult({ ok: true, status, body: answer }),
      (error: unknown) => setResult({ ok: false, detail: error instanceof RedirectNotFollowed ? t('apiTools.redirectNotFollowed') : (error as Error).message }),
    );
  };

  return (
    <SectionCard title={t('apiTools.tester.title')} subtitle={t('apiTools.tester.subtitle')} testId="request-tester">
      <Stack gap="4">
        <Form onSubmit={send} noValidate aria-label={t('apiTools.tester.title')}>
          <Flex gap="3" direction={{ base: 'column', sm: 'row' }} align={{ sm: 'flex-start' }}>
            <Box w={{ base: 'full', sm: '32' }} flexShrink="0">
              <FormField label={t('apiTools.tester.method')}>
                <NativeSelect.Root>
                  <NativeSelect.Field name="method" value={method} onChange={(event) => setMethod(event.target.value as TesterMethod)}>
                    {testerMethods.map((option) => <option key={option} value={option}>{option}</option>)}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </FormField>
            </Box>
            <Box flex="1" minW="0">
              <FormField label={t('apiTools.tester.path')} error={pathError}>
                <Input
                  name="path"
                  value={path}
                  fontFamily="mono"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={DEFAULT_TESTER_PATH}
                  onChange={(event) => {
                    setPath(event.target.value);
                    setPathError(null);
                  }}
                />
              </FormField>
            </Box>
          </Flex>
          {method === 'POST' && (
            <FormField label={t('apiTools.tester.body')} error={bodyError} helper={t('apiTools.tester.bodyHelper')}>
              <Textarea
                name="body"
                value={body}
                fontFamily="mono"
                fontSize="sm"
                rows={6}
                spellCheck={false}
                autoComplete="off"
                placeholder='{ "key": "value" }'
                onChange={(event) => {
                  setBody(event.target.value);
                  setBodyError(null);
                }}
              />
            </FormField>
          )}
          <Box>
            <Button type="submit" colorPalette="blue" disabled={path.trim() === ''} loading={call.isPending} loadingText={t('apiTools.tester.sending')}>
              {t('apiTools.tester.send')}
            </Button>
          </Box>
        </Form>
        {result && <TesterResult result={result} />}
      </Stack>
    </SectionCard>
  );
}

function TesterResult({ result }: { result: Result }) {
  const { t } = useTexts();
  return (
    <Box borderWidth="1px" borderRadius="md" p="4" bg="bg.subtle" data-testid="tester-result" aria-live="polite" minW="0">
      <Flex gap="2" align="center" wrap="wrap" mb="3">
        <Heading as="h3" size="sm">{result.ok ? t('apiTools.result.title') : t('apiTools.result.failed')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('apiTools.result.status')}</Text>
        <Badge colorPalette={result.ok ? tonePalette[statusTone(result.status)] : 'red'} data-testid="tester-status">
          {result.ok ? result.status : t('apiTools.result.error')}
        </Badge>
      </Flex>
      <JsonBlock value={result.ok ? result.body : result.detail} testId="tester-body" />
    </Box>
  );
}
