import { Badge, Button, Flex, Link as ChakraLink, Stack, Text, Textarea } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { apiRequest, errorText } from '../../lib/api';
import { notify } from '../../lib/toast';
import { aiAdminKeys, aiAdminPaths, type ParserPrompt } from './api';
import { useSaveParserPrompt } from './mutations';
import { useDefaultParserPrompt, useParserPrompt } from './queries';
import { AdminCard, Loading, useFailureToast } from './shared';

/**
 * Document 2 §2.1/§4 Email-parser prompt: create mode while none is saved (the read answers 404,
 * and the editor starts from the default the parser uses meanwhile), update mode once one is; the
 * default can be read into the editor at any time. Its test is on /ai-parser-config.
 */
export function ParserPromptCard() {
  const { t } = useTexts();
  const prompt = useParserPrompt();
  const createMode = prompt.isSuccess && prompt.data === null;
  const fallback = useDefaultParserPrompt(createMode);
  const saved = prompt.data ?? null;
  return (
    <AdminCard
      id="email-parser-prompt"
      subtitle={t('aiAdmin.parser.subtitle')}
      badge={
        prompt.isSuccess && (
          <Badge colorPalette={saved ? 'green' : 'orange'} data-testid="parser-mode">
            {saved ? t('aiAdmin.parser.updateMode') : t('aiAdmin.parser.createMode')}
          </Badge>
        )
      }
    >
      <Stack gap="4">
        {(prompt.isPending || (createMode && fallback.isPending)) && <Loading />}
        {prompt.isError && (
          <ErrorAlert
            title={t('aiAdmin.parser.fetchFailed')}
            description={
              <>
                {errorText(prompt.error, prompt.error.message)}{' '}
                <Button size="xs" variant="outline" onClick={() => void prompt.refetch()}>{t('app.retry')}</Button>
              </>
            }
          />
        )}
        {createMode && fallback.isError && <ErrorAlert title={t('aiAdmin.parser.defaultFailed')} description={errorText(fallback.error, fallback.error.message)} />}
        {/* Keyed by what is stored: after a save the editor starts from the saved text, in update mode. */}
        {saved && <ParserPromptEditor key={`saved:${saved.updatedAt ?? ''}`} saved={saved} initial={saved.content} />}
        {createMode && !fallback.isPending && <ParserPromptEditor key="create" saved={null} initial={fallback.data?.content ?? ''} />}
        <Text fontSize="sm">
          {t('aiAdmin.parser.testLink')}{' '}
          <ChakraLink asChild colorPalette="blue">
            <Link to="/ai-parser-config">{t('nav.aiParser')}</Link>
          </ChakraLink>
        </Text>
      </Stack>
    </AdminCard>
  );
}

function ParserPromptEditor({ saved, initial }: { saved: ParserPrompt | null; initial: string }) {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const queryClient = useQueryClient();
  const [content, setContent] = useState(initial);
  const [defaultShown, setDefaultShown] = useState(false);
  const [reading, setReading] = useState(false);
  const save = useSaveParserPrompt({
    onSuccess: () => notify({ title: saved ? t('aiAdmin.parser.updated') : t('aiAdmin.parser.created'), description: t('aiAdmin.parser.savedBody'), type: 'success' }),
    onError: failed('aiAdmin.parser.saveFailed'),
  });
  const readDefault = async () => {
    setReading(true);
    try {
      const fallback = await queryClient.fetchQuery<ParserPrompt>({ queryKey: aiAdminKeys.parserDefault, queryFn: () => apiRequest<ParserPrompt>('GET', aiAdminPaths.parserDefault) });
      setContent(fallback.content);
      setDefaultShown(true);
    } catch (error) {
      failed('aiAdmin.parser.defaultFailed')(error);
    } finally {
      setReading(false);
    }
  };
  const blank = content.trim() === '';
  return (
    <Form onSubmit={() => !blank && !save.isPending && save.mutate({ content })} aria-label={t('aiAdmin.parser.title')}>
      {!saved && <Text fontSize="sm" color="fg.warning" data-testid="parser-create-help">{t('aiAdmin.parser.createHelp')}</Text>}
      <FormField label={t('aiAdmin.parser.label')} helper={saved?.updatedAt ? t('aiAdmin.parser.savedAt', { time: format.dateTime(saved.updatedAt) }) : undefined}>
        <Textarea
          name="parserPrompt"
          value={content}
          onChange={(event) => {
            setContent(event.target.value);
            setDefaultShown(false);
          }}
          rows={12}
          fontFamily="mono"
          fontSize="sm"
          lang="mn"
        />
      </FormField>
      {defaultShown && <Text fontSize="sm" color="fg.muted" role="status">{t('aiAdmin.parser.defaultLoaded')}</Text>}
      <Flex gap="2" wrap="wrap">
        <Button type="submit" colorPalette="blue" disabled={blank} loading={save.isPending} loadingText={t('common.saving')}>
          {saved ? t('aiAdmin.parser.update') : t('aiAdmin.parser.create')}
        </Button>
        <Button variant="outline" onClick={() => void readDefault()} loading={reading}>{t('aiAdmin.parser.readDefault')}</Button>
      </Flex>
    </Form>
  );
}
