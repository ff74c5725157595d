import { Badge, Button, Code, Flex, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { allFilled, CHAT_PROMPT_ID, preview, PROMPT_PREVIEW_CHARS, type SystemPrompt } from './api';
import { useCreatePrompt, useDeletePrompt, useUpdatePrompt } from './mutations';
import { usePrompts } from './queries';
import { AdminCard, contained, ListState, LongText, RowActions, useFailureToast, useValidationToast } from './shared';

/** The e-mail parser's prompt is a row of the same table (its own card edits it too). */
const PARSER_PROMPT_ID = 'email_parser';

/** Closed, or open on an item (edit mode) or on none (create mode). */
export type Editing<Item> = { item: Item | null } | null;

/** Document 2 §2.1 System Prompts: a 200-character preview, create, edit (content only) and delete with a confirm dialog. */
export function PromptsCard() {
  const { t, format } = useTexts();
  const prompts = usePrompts();
  const [editing, setEditing] = useState<Editing<SystemPrompt>>(null);
  const [deleting, setDeleting] = useState<SystemPrompt | null>(null);
  const rows = prompts.data?.data ?? [];
  const columns: Column<SystemPrompt>[] = [
    {
      key: 'promptId',
      header: t('aiAdmin.prompts.promptId'),
      cell: (row) => (
        <Stack gap="1" align="flex-start">
          <Code size="sm" wordBreak="break-all">{row.promptId}</Code>
          {row.promptId === CHAT_PROMPT_ID && <Badge colorPalette="blue" size="sm">{t('aiAdmin.prompts.chatBadge')}</Badge>}
          {row.promptId === PARSER_PROMPT_ID && <Badge colorPalette="purple" size="sm">{t('aiAdmin.prompts.parserBadge')}</Badge>}
        </Stack>
      ),
    },
    { key: 'name', header: t('aiAdmin.prompts.name'), cell: (row) => row.name, cellProps: { minW: '32' } },
    { key: 'content', header: t('aiAdmin.prompts.content'), cell: (row) => <LongText testId="prompt-preview">{preview(row.content, PROMPT_PREVIEW_CHARS)}</LongText>, cellProps: { minW: '72' } },
    { key: 'updatedAt', header: t('aiAdmin.prompts.updatedAt'), cell: (row) => format.dateTime(row.updatedAt), cellProps: { whiteSpace: 'nowrap', fontSize: 'sm' } },
    {
      key: 'actions',
      header: <Text srOnly>{t('aiAdmin.actions')}</Text>,
      headerProps: contained,
      cell: (row) => <RowActions name={row.promptId} onEdit={() => setEditing({ item: row })} onDelete={() => setDeleting(row)} />,
    },
  ];
  return (
    <AdminCard
      id="system-prompts"
      subtitle={t('aiAdmin.prompts.subtitle')}
      actions={<Button size="sm" colorPalette="blue" onClick={() => setEditing({ item: null })}>{t('aiAdmin.prompts.add')}</Button>}
    >
      <ListState query={prompts} failed={t('aiAdmin.prompts.fetchFailed')} empty={t('aiAdmin.prompts.empty')} count={rows.length}>
        <DataTable columns={columns} rows={rows} rowKey={(row) => row.promptId} rowProps={(row) => ({ 'data-prompt': row.promptId })} caption={t('aiAdmin.prompts.title')} testId="prompts-table" />
      </ListState>
      {editing && <PromptDialog prompt={editing.item} onClose={() => setEditing(null)} />}
      {deleting && <DeletePromptDialog prompt={deleting} onClose={() => setDeleting(null)} />}
    </AdminCard>
  );
}

/** Create mode without a prompt (all three fields required), edit mode with one (its content only). */
function PromptDialog({ prompt, onClose }: { prompt: SystemPrompt | null; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const invalid = useValidationToast();
  const [promptId, setPromptId] = useState(prompt?.promptId ?? '');
  const [name, setName] = useState(prompt?.name ?? '');
  const [content, setContent] = useState(prompt?.content ?? '');
  const create = useCreatePrompt({
    onSuccess: (reply) => {
      notify({ title: t('aiAdmin.prompts.created'), description: t('aiAdmin.prompts.createdBody', { promptId: reply.data.promptId }), type: 'success' });
      onClose();
    },
    onError: failed('aiAdmin.prompts.createFailed'),
  });
  const update = useUpdatePrompt({
    onSuccess: (reply) => {
      notify({ title: t('aiAdmin.prompts.updated'), description: t('aiAdmin.prompts.updatedBody', { promptId: reply.data.promptId }), type: 'success' });
      onClose();
    },
    onError: failed('aiAdmin.prompts.updateFailed'),
  });
  const busy = create.isPending || update.isPending;
  const submit = () => {
    if (busy) return;
    if (prompt) {
      if (!allFilled(content)) return invalid('aiAdmin.fillAll');
      return update.mutate({ promptId: prompt.promptId, content });
    }
    if (!allFilled(promptId, name, content)) return invalid('aiAdmin.fillAll');
    create.mutate({ promptId: promptId.trim(), name: name.trim(), content });
  };
  return (
    <Dialog
      open
      onClose={() => !busy && onClose()}
      title={prompt ? t('aiAdmin.prompts.editTitle') : t('aiAdmin.prompts.createTitle')}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="prompt-form" loading={busy} loadingText={t('common.saving')}>{prompt ? t('aiAdmin.saveChanges') : t('aiAdmin.create')}</Button>
        </>
      }
    >
      <Form id="prompt-form" onSubmit={submit} noValidate gap="4">
        {prompt ? (
          <Flex gap="2" align="center" wrap="wrap">
            <Code>{prompt.promptId}</Code>
            <Text fontWeight="medium">{prompt.name}</Text>
            <Text fontSize="sm" color="fg.muted" flexBasis="full">{t('aiAdmin.prompts.editHelper')}</Text>
          </Flex>
        ) : (
          <>
            <FormField label={t('aiAdmin.prompts.promptId')} helper={t('aiAdmin.prompts.promptIdHelper')} required>
              <Input name="promptId" value={promptId} onChange={(event) => setPromptId(event.target.value)} placeholder={CHAT_PROMPT_ID} maxLength={100} autoComplete="off" spellCheck={false} fontFamily="mono" />
            </FormField>
            <FormField label={t('aiAdmin.prompts.name')} required>
              <Input name="name" value={name} onChange={(event) => setName(event.target.value)} maxLength={200} autoComplete="off" />
            </FormField>
          </>
        )}
        <FormField label={t('aiAdmin.prompts.content')} required>
          <Textarea name="content" value={content} onChange={(event) => setContent(event.target.value)} rows={12} fontSize="sm" fontFamily="mono" />
        </FormField>
      </Form>
    </Dialog>
  );
}

function DeletePromptDialog({ prompt, onClose }: { prompt: SystemPrompt; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeletePrompt({
    onSuccess: () => {
      notify({ title: t('aiAdmin.prompts.deleted'), description: t('aiAdmin.prompts.deletedBody', { promptId: prompt.promptId }), type: 'success' });
      onClose();
    },
    onError: (error) => {
      failed('aiAdmin.prompts.deleteFailed')(error);
      onClose();
    },
  });
  const message = t('aiAdmin.prompts.deleteMessage', { promptId: prompt.promptId, name: prompt.name });
  return (
    <ConfirmDialog
      open
      title={t('aiAdmin.prompts.deleteTitle')}
      message={prompt.promptId === CHAT_PROMPT_ID ? `${message} ${t('aiAdmin.prompts.deleteChatNote')}` : message}
      confirmLabel={t('aiAdmin.delete')}
      destructive
      busy={remove.isPending}
      onConfirm={() => !remove.isPending && remove.mutate(prompt.promptId)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}
