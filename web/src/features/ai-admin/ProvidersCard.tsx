import { Badge, Box, Button, Code, Flex, Input, NativeSelect, Switch, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/DataTable';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { useTexts } from '../../i18n';
import { notify } from '../../lib/toast';
import { parsePriority, providerFamilies, providerModels, suggestedKeyVariable, type AiProvider, type ProviderFamily } from './api';
import { useCreateProvider, useDeleteProvider, useUpdateProvider } from './mutations';
import type { Editing } from './PromptsCard';
import { useProviders } from './queries';
import { AdminCard, contained, ListState, RowActions, useFailureToast } from './shared';

/** The model select's choice that shows a free-text field (any model name is accepted). */
const OTHER_MODEL = '__other__';

/**
 * Document 2 §2.1 AI Providers: tried by priority (0 first); the list's switch enables or disables
 * a provider at once (PUT with only `enabled`); create, edit and delete (with a confirm dialog).
 * A row names the variable holding its key and says whether the server has it set.
 */
export function ProvidersCard() {
  const { t } = useTexts();
  const providers = useProviders();
  const failed = useFailureToast();
  const [editing, setEditing] = useState<Editing<AiProvider>>(null);
  const [deleting, setDeleting] = useState<AiProvider | null>(null);
  const rows = providers.data?.data ?? [];
  const familyName = (family: ProviderFamily) => t(`aiAdmin.providers.family.${family}`);
  const nameOf = (row: AiProvider) => `${familyName(row.provider)} ${row.model}`;
  const toggle = useUpdateProvider({
    onSuccess: (reply) =>
      notify({ title: reply.data.enabled ? t('aiAdmin.providers.switchedOn') : t('aiAdmin.providers.switchedOff'), description: nameOf(reply.data), type: 'success' }),
    onError: failed('aiAdmin.providers.toggleFailed'),
  });
  // While a switch's call runs it shows the state asked for.
  const pending = toggle.isPending ? toggle.variables : undefined;
  const columns: Column<AiProvider>[] = [
    { key: 'priority', header: t('aiAdmin.providers.priority'), cell: (row) => row.priority, cellProps: { textAlign: 'end' }, headerProps: { textAlign: 'end' } },
    { key: 'provider', header: t('aiAdmin.providers.provider'), cell: (row) => familyName(row.provider) },
    { key: 'model', header: t('aiAdmin.providers.model'), cell: (row) => <Code size="sm">{row.model}</Code> },
    {
      key: 'apiKeyEnvVar',
      header: t('aiAdmin.providers.apiKeyEnvVar'),
      cell: (row) => (
        <Flex gap="2" align="center" wrap="wrap">
          <Code size="sm">{row.apiKeyEnvVar}</Code>
          <KeyState present={row.apiKeyPresent} />
        </Flex>
      ),
    },
    {
      key: 'enabled',
      header: t('aiAdmin.providers.enabled'),
      cellProps: contained,
      cell: (row) => (
        <Switch.Root
          size="sm"
          checked={pending?.id === row.id ? Boolean(pending.body.enabled) : row.enabled}
          disabled={pending?.id === row.id}
          onCheckedChange={(event) => !toggle.isPending && toggle.mutate({ id: row.id, body: { enabled: event.checked } })}
        >
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label srOnly>{t('aiAdmin.providers.toggleLabel', { name: nameOf(row) })}</Switch.Label>
        </Switch.Root>
      ),
    },
    {
      key: 'actions',
      header: <Text srOnly>{t('aiAdmin.actions')}</Text>,
      headerProps: contained,
      cell: (row) => <RowActions name={nameOf(row)} onEdit={() => setEditing({ item: row })} onDelete={() => setDeleting(row)} />,
    },
  ];
  return (
    <AdminCard
      id="ai-providers"
      subtitle={t('aiAdmin.providers.subtitle')}
      actions={<Button size="sm" colorPalette="blue" onClick={() => setEditing({ item: null })}>{t('aiAdmin.providers.add')}</Button>}
    >
      <ListState query={providers} failed={t('aiAdmin.providers.fetchFailed')} empty={t('aiAdmin.providers.empty')} count={rows.length}>
        <DataTable columns={columns} rows={rows} rowKey={(row) => String(row.id)} rowProps={(row) => ({ 'data-provider': String(row.id) })} caption={t('aiAdmin.providers.title')} testId="providers-table" />
      </ListState>
      {editing && <ProviderDialog provider={editing.item} onClose={() => setEditing(null)} />}
      {deleting && <DeleteProviderDialog provider={deleting} name={nameOf(deleting)} onClose={() => setDeleting(null)} />}
    </AdminCard>
  );
}

function KeyState({ present }: { present: boolean }) {
  const { t } = useTexts();
  return (
    <Badge size="sm" colorPalette={present ? 'green' : 'orange'} data-testid="key-state">
      {present ? t('aiAdmin.providers.keySet') : t('aiAdmin.providers.keyMissing')}
    </Badge>
  );
}

/** Create mode without a provider, edit mode with one; the models offered follow the family chosen. */
function ProviderDialog({ provider, onClose }: { provider: AiProvider | null; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const [family, setFamily] = useState<ProviderFamily>(provider?.provider ?? 'openai');
  const listed = provider ? providerModels[provider.provider].includes(provider.model) : true;
  const [modelChoice, setModelChoice] = useState(provider ? (listed ? provider.model : OTHER_MODEL) : providerModels.openai[0]);
  const [customModel, setCustomModel] = useState(provider && !listed ? provider.model : '');
  const [apiKeyEnvVar, setApiKeyEnvVar] = useState(provider?.apiKeyEnvVar ?? suggestedKeyVariable.openai);
  const [priority, setPriority] = useState(String(provider?.priority ?? 0));
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const saved = (reply: { data: AiProvider }) => {
    notify({ title: t('aiAdmin.providers.saved'), description: t('aiAdmin.providers.savedBody', { name: `${t(`aiAdmin.providers.family.${reply.data.provider}`)} ${reply.data.model}` }), type: 'success' });
    onClose();
  };
  const create = useCreateProvider({ onSuccess: saved, onError: failed('aiAdmin.providers.saveFailed') });
  const update = useUpdateProvider({ onSuccess: saved, onError: failed('aiAdmin.providers.saveFailed') });
  const busy = create.isPending || update.isPending;

  const chooseFamily = (next: ProviderFamily) => {
    setFamily(next);
    if (modelChoice !== OTHER_MODEL) setModelChoice(providerModels[next][0]);
    // The suggested variable follows the family unless one of the admin's own is typed in.
    if (!apiKeyEnvVar.trim() || apiKeyEnvVar === suggestedKeyVariable[family]) setApiKeyEnvVar(suggestedKeyVariable[next]);
  };
  const submit = () => {
    if (busy) return;
    const body = {
      provider: family,
      model: modelChoice === OTHER_MODEL ? customModel.trim() : modelChoice,
      apiKeyEnvVar: apiKeyEnvVar.trim(),
      priority: parsePriority(priority),
      enabled,
    };
    if (provider) update.mutate({ id: provider.id, body });
    else create.mutate(body);
  };
  return (
    <Dialog
      open
      onClose={() => !busy && onClose()}
      title={provider ? t('aiAdmin.providers.editTitle') : t('aiAdmin.providers.createTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>{t('common.cancel')}</Button>
          <Button colorPalette="blue" type="submit" form="provider-form" loading={busy} loadingText={t('common.saving')}>{provider ? t('aiAdmin.saveChanges') : t('aiAdmin.create')}</Button>
        </>
      }
    >
      <Form id="provider-form" onSubmit={submit} noValidate gap="4">
        <FormField label={t('aiAdmin.providers.provider')}>
          <NativeSelect.Root>
            <NativeSelect.Field name="provider" value={family} onChange={(event) => chooseFamily(event.target.value as ProviderFamily)}>
              {providerFamilies.map((option) => <option key={option} value={option}>{t(`aiAdmin.providers.family.${option}`)}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        <FormField label={t('aiAdmin.providers.model')}>
          <NativeSelect.Root>
            <NativeSelect.Field name="model" value={modelChoice} onChange={(event) => setModelChoice(event.target.value)}>
              {providerModels[family].map((model) => <option key={model} value={model}>{model}</option>)}
              <option value={OTHER_MODEL}>{t('aiAdmin.providers.otherModel')}</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
        {modelChoice === OTHER_MODEL && (
          <FormField label={t('aiAdmin.providers.modelName')}>
            <Input name="customModel" value={customModel} onChange={(event) => setCustomModel(event.target.value)} maxLength={100} autoComplete="off" spellCheck={false} fontFamily="mono" />
          </FormField>
        )}
        <FormField label={t('aiAdmin.providers.apiKeyEnvVar')} helper={t('aiAdmin.providers.apiKeyHelper')}>
          <Input
            name="apiKeyEnvVar"
            value={apiKeyEnvVar}
            onChange={(event) => setApiKeyEnvVar(event.target.value)}
            placeholder={suggestedKeyVariable[family]}
            maxLength={100}
            autoComplete="off"
            spellCheck={false}
            fontFamily="mono"
          />
        </FormField>
        {provider && provider.apiKeyEnvVar === apiKeyEnvVar.trim() && (
          <Flex gap="2" align="center" fontSize="sm">
            <Text>{t('aiAdmin.providers.apiKeyOnServer')}</Text>
            <KeyState present={provider.apiKeyPresent} />
          </Flex>
        )}
        <FormField label={t('aiAdmin.providers.priority')} helper={t('aiAdmin.providers.priorityHelper')}>
          <Input name="priority" type="number" inputMode="numeric" step={1} min={0} value={priority} onChange={(event) => setPriority(event.target.value)} maxW="32" />
        </FormField>
        <Box>
          <Switch.Root name="enabled" checked={enabled} onCheckedChange={(event) => setEnabled(event.checked)}>
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label>{t('aiAdmin.providers.enabled')}</Switch.Label>
          </Switch.Root>
        </Box>
      </Form>
    </Dialog>
  );
}

function DeleteProviderDialog({ provider, name, onClose }: { provider: AiProvider; name: string; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeleteProvider({
    onSuccess: () => {
      notify({ title: t('aiAdmin.providers.deleted'), description: t('aiAdmin.providers.deletedBody', { name }), type: 'success' });
      onClose();
    },
    onError: (error) => {
      failed('aiAdmin.providers.deleteFailed')(error);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('aiAdmin.providers.deleteTitle')}
      message={t('aiAdmin.providers.deleteMessage', { name })}
      confirmLabel={t('aiAdmin.delete')}
      destructive
      busy={remove.isPending}
      onConfirm={() => !remove.isPending && remove.mutate(provider.id)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}
