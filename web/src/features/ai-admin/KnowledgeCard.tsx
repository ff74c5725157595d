import { Alert, Badge, Box, Button, Flex, Heading, Input, NativeSelect, Separator, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import {
  allFilled,
  KNOWLEDGE_RESULT_PREVIEW_CHARS,
  KNOWLEDGE_TABLE_PREVIEW_CHARS,
  preview,
  similarityVariant,
  type KnowledgeEntry,
  type KnowledgeSearchHit,
  type SearchReply,
} from './api';
import { useCreateKnowledge, useDeleteKnowledge, useSearchKnowledge, useUpdateKnowledge } from './mutations';
import type { Editing } from './PromptsCard';
import { useKnowledge, useKnowledgeCategories } from './queries';
import { AdminCard, contained, ListState, LongText, RowActions, useFailureToast, useValidationToast } from './shared';

/**
 * Document 2 §2.1 Knowledge Base: the entries (100-character previews) with a category filter,
 * create, edit and delete (with a confirm dialog), and the test search (200-character previews,
 * similarity badges). Search works without an AI key too, by words only, and then says why.
 */
export function KnowledgeCard() {
  const { t, format } = useTexts();
  const [category, setCategory] = useState('');
  const entries = useKnowledge(category);
  const categories = useKnowledgeCategories().data?.data ?? [];
  const [editing, setEditing] = useState<Editing<KnowledgeEntry>>(null);
  const [deleting, setDeleting] = useState<KnowledgeEntry | null>(null);
  const rows = entries.data?.data ?? [];
  // A category emptied meanwhile (its last entry deleted) stays chosen, with nothing in it.
  const options = category && !categories.some((option) => option.category === category) ? [...categories, { category, count: 0 }] : categories;
  const columns: Column<KnowledgeEntry>[] = [
    { key: 'category', header: t('aiAdmin.knowledge.category'), cell: (row) => <Badge variant="surface">{row.category}</Badge> },
    { key: 'title', header: t('aiAdmin.knowledge.entryTitle'), cell: (row) => row.title, cellProps: { minW: '40', fontWeight: 'medium' } },
    {
      key: 'content',
      header: t('aiAdmin.knowledge.content'),
      cell: (row) => (
        <Stack gap="1" align="flex-start">
          <LongText testId="knowledge-preview">{preview(row.content, KNOWLEDGE_TABLE_PREVIEW_CHARS)}</LongText>
          {!row.embedded && <Badge size="sm" colorPalette="orange" title={t('aiAdmin.knowledge.wordsOnlyHelp')}>{t('aiAdmin.knowledge.wordsOnly')}</Badge>}
        </Stack>
      ),
      cellProps: { minW: '64' },
    },
    { key: 'createdAt', header: t('aiAdmin.knowledge.createdAt'), cell: (row) => format.dateTime(row.createdAt), cellProps: { whiteSpace: 'nowrap', fontSize: 'sm' } },
    {
      key: 'actions',
      header: <Text srOnly>{t('aiAdmin.actions')}</Text>,
      headerProps: contained,
      cell: (row) => <RowActions name={row.title} onEdit={() => setEditing({ item: row })} onDelete={() => setDeleting(row)} />,
    },
  ];
  return (
    <AdminCard id="knowledge-base" subtitle={t('aiAdmin.knowledge.subtitle')} actions={<Button size="sm" colorPalette="blue" onClick={() => setEditing({ item: null })}>{t('aiAdmin.knowledge.add')}</Button>}>
      <Stack gap="4">
        <Box maxW="xs">
          <FormField label={t('aiAdmin.knowledge.filter')}>
            <NativeSelect.Root size="sm">
              <NativeSelect.Field name="category" value={category} onChange={(event) => setCategory(event.target.value)}>
                <option value="">{t('aiAdmin.knowledge.allCategories')}</option>
                {options.map((option) => (
                  <option key={option.category} value={option.category}>{t('aiAdmin.knowledge.categoryOption', { category: option.category, count: option.count })}</option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
        </Box>
        <ListState query={entries} failed={t('aiAdmin.knowledge.fetchFailed')} empty={category ? t('aiAdmin.knowledge.emptyCategory') : t('aiAdmin.knowledge.empty')} count={rows.length}>
          <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} rowProps={(row) => ({ 'data-entry': row.title })} caption={t('aiAdmin.knowledge.title')} testId="knowledge-table" />
        </ListState>
        <Separator />
        <KnowledgeSearch />
      </Stack>
      {editing && <KnowledgeDialog entry={editing.item} categories={categories.map((option) => option.category)} onClose={() => setEditing(null)} />}
      {deleting && <DeleteKnowledgeDialog entry={deleting} onClose={() => setDeleting(null)} />}
    </AdminCard>
  );
}

/** Create mode without an entry, edit mode with one; category, title and content all required. */
function KnowledgeDialog({ entry, categories, onClose }: { entry: KnowledgeEntry | null; categories: string[]; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const invalid = useValidationToast();
  const [category, setCategory] = useState(entry?.category ?? '');
  const [title, setTitle] = useState(entry?.title ?? '');
  const [content, setContent] = useState(entry?.content ?? '');
  const saved = (reply: { data: KnowledgeEntry }) => {
    notify({ title: t('aiAdmin.knowledge.saved'), description: t('aiAdmin.knowledge.savedBody', { title: reply.data.title }), type: 'success' });
    onClose();
  };
  const create = useCreateKnowledge({ onSuccess: saved, onError: failed('aiAdmin.knowledge.saveFailed') });
  const update = useUpdateKnowledge({ onSuccess: saved, onError: failed('aiAdmin.knowledge.saveFailed') });
  const busy = create.isPending || update.isPending;
  const submit = () => {
    if (busy) return;
    if (!allFilled(category, title, content)) return invalid('aiAdmin.fillAll');
    const body = { category: category.trim(), title: title.trim(), content: content.trim() };
    if (entry) update.mutate({ id: entry.id, body });
    else create.mutate(body);
  };
  return (
    <Dialog
      open
      onClose={() => !busy && onClose()}
      title={entry ? t('aiAdmin.knowledge.editTitle') : t('aiAdmin.knowledge.createTitle')}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="knowledge-form" loading={busy} loadingText={t('common.saving')}>{entry ? t('aiAdmin.saveChanges') : t('aiAdmin.create')}</Button>
        </>
      }
    >
      <Form id="knowledge-form" onSubmit={submit} noValidate gap="4">
        <FormField label={t('aiAdmin.knowledge.category')} required>
          <Input name="category" value={category} onChange={(event) => setCategory(event.target.value)} list="knowledge-categories" maxLength={100} autoComplete="off" />
        </FormField>
        <datalist id="knowledge-categories">{categories.map((option) => <option key={option} value={option} />)}</datalist>
        <FormField label={t('aiAdmin.knowledge.entryTitle')} required>
          <Input name="title" value={title} onChange={(event) => setTitle(event.target.value)} maxLength={300} autoComplete="off" />
        </FormField>
        <FormField label={t('aiAdmin.knowledge.content')} required>
          <Textarea name="content" value={content} onChange={(event) => setContent(event.target.value)} rows={10} maxLength={10_000} fontSize="sm" />
        </FormField>
      </Form>
    </Dialog>
  );
}

function DeleteKnowledgeDialog({ entry, onClose }: { entry: KnowledgeEntry; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeleteKnowledge({
    onSuccess: () => {
      notify({ title: t('aiAdmin.knowledge.deleted'), description: t('aiAdmin.knowledge.deletedBody', { title: entry.title }), type: 'success' });
      onClose();
    },
    onError: (error) => {
      failed('aiAdmin.knowledge.deleteFailed')(error);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('aiAdmin.knowledge.deleteTitle')}
      message={t('aiAdmin.knowledge.deleteMessage', { title: entry.title })}
      confirmLabel={t('aiAdmin.delete')}
      destructive
      busy={remove.isPending}
      onConfirm={() => !remove.isPending && remove.mutate(entry.id)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}

/** Document 2 §5/§8: a query is required; a failed search clears the results. */
function KnowledgeSearch() {
  const { t } = useTexts();
  const failed = useFailureToast();
  const invalid = useValidationToast();
  const [query, setQuery] = useState('');
  const [reply, setReply] = useState<SearchReply | null>(null);
  const search = useSearchKnowledge({
    onSuccess: setReply,
    onError: (error) => {
      setReply(null);
      failed('aiAdmin.search.failed')(error);
    },
  });
  const submit = () => {
    if (search.isPending) return;
    if (!allFilled(query)) return invalid('aiAdmin.search.required');
    search.mutate(query.trim());
  };
  return (
    <Stack gap="3" data-testid="knowledge-search">
      <Box>
        <Heading as="h3" size="sm">{t('aiAdmin.search.title')}</Heading>
        <Text fontSize="sm" color="fg.muted">{t('aiAdmin.search.subtitle')}</Text>
      </Box>
      <Form onSubmit={submit} noValidate aria-label={t('aiAdmin.search.title')}>
        <Flex gap="2" align="flex-end" wrap="wrap">
          <Box flex="1" minW="48">
            <FormField label={t('aiAdmin.search.query')}>
              <Input name="query" type="search" value={query} onChange={(event) => setQuery(event.target.value)} maxLength={2000} autoComplete="off" />
            </FormField>
          </Box>
          <Button type="submit" colorPalette="blue" loading={search.isPending} loadingText={t('aiAdmin.search.searching')}>{t('aiAdmin.search.search')}</Button>
        </Flex>
      </Form>
      {reply && <SearchResults reply={reply} />}
    </Stack>
  );
}

function SearchResults({ reply }: { reply: SearchReply }) {
  const { t } = useTexts();
  return (
    <Stack gap="3" data-testid="search-results" data-mode={reply.mode}>
      {reply.mode === 'keyword' ? (
        <Alert.Root status="warning" data-testid="search-mode">
          <Alert.Indicator />
          <Alert.Content>
            {/* The server's reason says it in its own words ('Keyword search only: …'). */}
            <Alert.Title data-testid={reply.reason ? 'search-reason' : undefined}>{reply.reason ?? t('aiAdmin.search.keywordOnly')}</Alert.Title>
          </Alert.Content>
        </Alert.Root>
      ) : (
        <Stack gap="1" data-testid="search-mode">
          <Text fontSize="sm" color="fg.muted">{t('aiAdmin.search.hybrid')}</Text>
          {reply.reason && <Text fontSize="sm" color="fg.warning" data-testid="search-reason">{`${t('aiAdmin.search.note')}: ${reply.reason}`}</Text>}
        </Stack>
      )}
      <Text fontSize="sm" fontWeight="medium" data-testid="search-count">{reply.data.length === 0 ? t('aiAdmin.search.none') : t('aiAdmin.search.count', { count: reply.data.length })}</Text>
      {reply.data.map((hit) => <SearchHit key={hit.id} hit={hit} />)}
    </Stack>
  );
}

function SearchHit({ hit }: { hit: KnowledgeSearchHit }) {
  const { t, format } = useTexts();
  const variant = similarityVariant(hit.similarity);
  const byWords = hit.foundBy.includes('keywords');
  const byMeaning = hit.foundBy.includes('meaning');
  const how = byWords && byMeaning ? 'both' : byWords ? 'keywords' : byMeaning ? 'meaning' : null;
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" data-testid="search-hit" data-entry={hit.title}>
      <Flex gap="2" align="center" wrap="wrap" mb="1">
        <Text fontWeight="medium" wordBreak="break-word">{hit.title}</Text>
        <Badge variant="surface">{hit.category}</Badge>
        <Badge variant={variant} colorPalette={variant === 'solid' ? 'blue' : 'gray'} data-testid="similarity" data-variant={variant}>
          {t('aiAdmin.search.similarity', { percent: `${format.number(Math.round(hit.similarity * 100))}%` })}
        </Badge>
      </Flex>
      <LongText testId="search-preview">{preview(hit.content, KNOWLEDGE_RESULT_PREVIEW_CHARS)}</LongText>
      {how && <Text fontSize="xs" color="fg.muted" mt="1" data-testid="found-by">{t(`aiAdmin.search.foundBy.${how}`)}</Text>}
    </Box>
  );
}
