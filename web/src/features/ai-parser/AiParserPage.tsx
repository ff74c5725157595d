import { Badge, Box, Button, Card, Code, DataList, Flex, Heading, Link, List, NativeSelect, SimpleGrid, Spinner, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { PageHeader } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify, notifyError } from '../../lib/toast';
import { blockedTypeList, codeTypeList, type CodeType, type LoadedPrompt, type ParseResult } from './api';
import { useSavePrompt, useTestParser } from './mutations';
import { useParserPrompt } from './queries';

/**
 * /ai-parser-config (document 2 §2.2): the e-mail parser's system prompt on the left, the parser
 * tried on a pasted e-mail on the right with its result, and what it hands out and refuses.
 */
export default function AiParserPage() {
  const { t } = useTexts();
  const [result, setResult] = useState<ParseResult | null>(null);
  return (
    <>
      <PageHeader title={t('aiParser.title')} subtitle={t('aiParser.subtitle')} />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start">
        <PromptCard />
        <Stack gap="6">
          <TestCard onResult={setResult} />
          {result && <ResultsCard result={result} />}
          <DocumentationCard />
        </Stack>
      </SimpleGrid>
    </>
  );
}

function PromptCard() {
  const { t } = useTexts();
  const prompt = useParserPrompt();
  return (
    <Card.Root size="sm" data-testid="prompt-card">
      <Card.Header>
        <Heading as="h2" size="md">{t('aiParser.promptTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('aiParser.promptHelp')}</Text>
      </Card.Header>
      <Card.Body>
        {prompt.isPending && <Flex gap="3" align="center" role="status" py="6"><Spinner size="sm" /><Text>{t('aiParser.loading')}</Text></Flex>}
        {prompt.isError && (
          <ErrorAlert
            title={t('aiParser.loadFailed')}
            description={<>{errorText(prompt.error, prompt.error.message)} <Button size="xs" variant="outline" onClick={() => void prompt.refetch()}>{t('aiParser.tryAgain')}</Button></>}
          />
        )}
        {/* Keyed by what is stored: after a save the editor starts from the saved text. */}
        {prompt.data && <PromptEditor key={`${prompt.data.saved}:${prompt.data.updatedAt ?? ''}`} prompt={prompt.data} />}
      </Card.Body>
    </Card.Root>
  );
}

function PromptEditor({ prompt }: { prompt: LoadedPrompt }) {
  const { t, format } = useTexts();
  const [content, setContent] = useState(prompt.content);
  const save = useSavePrompt({
    onSuccess: () => notify({ title: t('aiParser.saved'), description: t('aiParser.savedBody'), type: 'success' }),
    onError: (error) => notifyError(t('aiParser.error'), error, t('aiParser.saveFailed')),
  });
  const blank = content.trim() === '';
  return (
    <Form onSubmit={() => !blank && !save.isPending && save.mutate({ name: prompt.name, content })}>
      {!prompt.saved && <Text fontSize="sm" color="fg.warning" data-testid="default-prompt">{t('aiParser.defaultShown')}</Text>}
      <FormField label={t('aiParser.promptLabel')} helper={prompt.saved && prompt.updatedAt ? t('aiParser.savedAt', { time: format.dateTime(prompt.updatedAt) }) : undefined}>
        <Textarea name="content" value={content} onChange={(event) => setContent(event.target.value)} rows={22} fontFamily="mono" fontSize="sm" lang="mn" />
      </FormField>
      <Button type="submit" colorPalette="blue" alignSelf="flex-start" disabled={blank} loading={save.isPending} loadingText={t('common.saving')}>{t('aiParser.save')}</Button>
    </Form>
  );
}

/** Document 2 §5/§8: both fields or 'Missing Information'; a failed test clears the last result. */
function TestCard({ onResult }: { onResult: (result: ParseResult | null) => void }) {
  const { t } = useTexts();
  const [codeType, setCodeType] = useState<CodeType | ''>('');
  const [emailText, setEmailText] = useState('');
  const test = useTestParser({
    onSuccess: (reply) => {
      onResult(reply.data);
      notify({ title: t('aiParser.tested'), description: reply.data.reason, type: 'success' });
    },
    onError: (error) => {
      onResult(null);
      notifyError(t('aiParser.error'), error, t('aiParser.testFailed'));
    },
  });
  const submit = () => {
    if (test.isPending) return;
    if (!codeType || !emailText.trim()) return notify({ title: t('aiParser.missingTitle'), description: t('aiParser.missingBody'), type: 'error' });
    test.mutate({ emailText, codeType });
  };
  return (
    <Card.Root size="sm" data-testid="test-card">
      <Card.Header>
        <Heading as="h2" size="md">{t('aiParser.testTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('aiParser.testHelp')}</Text>
      </Card.Header>
      <Card.Body>
        <Form onSubmit={submit} aria-label={t('aiParser.testTitle')}>
          <FormField label={t('aiParser.codeType')}>
            <NativeSelect.Root>
              <NativeSelect.Field name="codeType" value={codeType} onChange={(event) => setCodeType(event.target.value as CodeType | '')}>
                <option value="">{t('aiParser.codeTypePlaceholder')}</option>
                {codeTypeList.map((type) => <option key={type} value={type}>{`${t(`aiParser.codeType.${type}`)} (${type})`}</option>)}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label={t('aiParser.emailText')}>
            <Textarea name="emailText" value={emailText} onChange={(event) => setEmailText(event.target.value)} rows={10} placeholder={t('aiParser.emailTextPlaceholder')} fontSize="sm" />
          </FormField>
          <Button type="submit" colorPalette="blue" alignSelf="flex-start" loading={test.isPending} loadingText={t('aiParser.testing')}>{t('aiParser.test')}</Button>
        </Form>
      </Card.Body>
    </Card.Root>
  );
}

/** Document 2 §3's parser test result: found, reason, message_mn, code, links, buttons; and which path answered. */
function ResultsCard({ result }: { result: ParseResult }) {
  const { t } = useTexts();
  const none = <Text as="span" color="fg.muted">{t('aiParser.none')}</Text>;
  return (
    <Card.Root size="sm" data-testid="test-results">
      <Card.Header><Heading as="h2" size="md">{t('aiParser.resultsTitle')}</Heading></Card.Header>
      <Card.Body>
        <DataList.Root orientation="horizontal" size="sm">
          <Row label={t('aiParser.found')} testId="result-found">
            <Badge colorPalette={result.found ? 'green' : 'gray'}>{result.found ? t('aiParser.yes') : t('aiParser.no')}</Badge>
          </Row>
          <Row label={t('aiParser.reason')} testId="result-reason">{result.reason || none}</Row>
          <Row label={t('aiParser.messageMn')} testId="result-message">{result.message_mn || none}</Row>
          {result.blockedType && (
            <Row label={t('aiParser.refusedKind')} testId="result-blocked">
              <Badge colorPalette="red">{t(`aiParser.blocked.${result.blockedType}`)}</Badge>
            </Row>
          )}
          <Row label={t('aiParser.code')} testId="result-code">
            {result.code ? <Text as="span" fontFamily="mono" fontSize="xl" fontWeight="bold" letterSpacing="wider">{result.code}</Text> : none}
          </Row>
          <Row label={t('aiParser.links')} testId="result-links"><Links urls={result.links} none={none} /></Row>
          <Row label={t('aiParser.buttons')} testId="result-buttons">
            {result.buttons.length === 0 ? none : (
              <List.Root gap="1" ps="4">
                {result.buttons.map((button) => (
                  <List.Item key={`${button.caption}:${button.url}`}>
                    <Text as="span" fontWeight="medium">{button.caption}</Text> → <ExternalLink url={button.url} />
                  </List.Item>
                ))}
              </List.Root>
            )}
          </Row>
          {result.approvalLinks.length > 0 && <Row label={t('aiParser.approvalLinks')} testId="result-approvals"><Links urls={result.approvalLinks} none={none} /></Row>}
          {result.denialLinks.length > 0 && <Row label={t('aiParser.denialLinks')} testId="result-denials"><Links urls={result.denialLinks} none={none} /></Row>}
          <Row label={t('aiParser.source')} testId="result-source">{t(`aiParser.source.${result.source}`)}</Row>
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  );
}

function Row({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel minW="28">{label}</DataList.ItemLabel>
      <DataList.ItemValue minW="0" wordBreak="break-word" data-testid={testId}>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}

function Links({ urls, none }: { urls: string[]; none: ReactNode }) {
  if (urls.length === 0) return <>{none}</>;
  return (
    <List.Root gap="1" ps="4">
      {urls.map((url) => <List.Item key={url}><ExternalLink url={url} /></List.Item>)}
    </List.Root>
  );
}

function ExternalLink({ url }: { url: string }) {
  return <Link href={url} target="_blank" rel="noopener noreferrer" colorPalette="blue" wordBreak="break-all" fontSize="sm">{url}</Link>;
}

function DocumentationCard() {
  const { t } = useTexts();
  return (
    <Card.Root size="sm" data-testid="parser-docs">
      <Card.Header>
        <Heading as="h2" size="md">{t('aiParser.docsTitle')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('aiParser.docsBody')}</Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="4">
          <Box>
            <Heading as="h3" size="sm" mb="2">{t('aiParser.docsAllowed')}</Heading>
            <TypeList items={codeTypeList.map((type) => [type, t(`aiParser.codeType.${type}`)])} testId="allowed-types" />
          </Box>
          <Box>
            <Heading as="h3" size="sm" mb="2" color="fg.error">{t('aiParser.docsBlocked')}</Heading>
            <TypeList items={blockedTypeList.map((type) => [type, t(`aiParser.blocked.${type}`)])} testId="blocked-types" />
          </Box>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function TypeList({ items, testId }: { items: [string, string][]; testId: string }) {
  return (
    <Stack as="ul" gap="1" listStyleType="none" data-testid={testId}>
      {items.map(([type, label]) => (
        <Flex as="li" key={type} gap="2" wrap="wrap" align="baseline">
          <Code size="sm" wordBreak="break-all">{type}</Code>
          <Text fontSize="sm">{label}</Text>
        </Flex>
      ))}
    </Stack>
  );
}
