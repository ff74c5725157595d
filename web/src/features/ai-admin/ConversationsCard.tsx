import { Badge, Box, Button, Code, Collapsible, Flex, Input, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Form, FormField } from '../../components/Form';
import { useTexts, type MessageKey } from '../../i18n';
import { notify } from '../../lib/toast';
import { DEFAULT_PAUSE_HOURS, MAX_PAUSE_HOURS, parsePauseHours, preview, type Conversation } from './api';
import { useDeleteConversation, usePauseAutomation, useResumeAutomation } from './mutations';
import { useConversations } from './queries';
import { AdminCard, ListState, LongText, useFailureToast } from './shared';

type Message = Conversation['messages'][number];

const sourceLabels: Record<string, MessageKey> = {
  price: 'aiAdmin.conv.source.price',
  ai: 'aiAdmin.conv.source.ai',
  holding: 'aiAdmin.conv.source.holding',
  fallback: 'aiAdmin.conv.source.fallback',
};

/**
 * The conversations view (issue 21): each subscriber's last activity and messages, a person's
 * takeover (pause for N hours or until resumed, and resume), and deleting a subscriber's history
 * with a confirm dialog.
 */
export function ConversationsCard() {
  const { t } = useTexts();
  const conversations = useConversations();
  const [pausing, setPausing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const rows = conversations.data?.data ?? [];
  return (
    <AdminCard
      id="conversations"
      subtitle={t('aiAdmin.conv.subtitle')}
      actions={
        <Button size="sm" variant="outline" onClick={() => void conversations.refetch()} loading={conversations.isFetching && !conversations.isPending}>
          {t('aiAdmin.refresh')}
        </Button>
      }
    >
      <ListState query={conversations} failed={t('aiAdmin.conv.fetchFailed')} empty={t('aiAdmin.conv.empty')} count={rows.length}>
        <Stack gap="3" as="ul" listStyleType="none" data-testid="conversation-list">
          {rows.map((conversation) => (
            <ConversationItem key={conversation.userId} conversation={conversation} onPause={() => setPausing(conversation.userId)} onDelete={() => setDeleting(conversation.userId)} />
          ))}
        </Stack>
      </ListState>
      {pausing && <PauseDialog userId={pausing} onClose={() => setPausing(null)} />}
      {deleting && <DeleteConversationDialog userId={deleting} onClose={() => setDeleting(null)} />}
    </AdminCard>
  );
}

function ConversationItem({ conversation, onPause, onDelete }: { conversation: Conversation; onPause: () => void; onDelete: () => void }) {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const [open, setOpen] = useState(false);
  const { userId, pause, messages } = conversation;
  const resume = useResumeAutomation({
    onSuccess: () => notify({ title: t('aiAdmin.conv.resumed'), description: t('aiAdmin.conv.resumedBody', { userId }), type: 'success' }),
    onError: failed('aiAdmin.conv.resumeFailed'),
  });
  const last = messages.at(-1);
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="3" data-subscriber={userId}>
      <Collapsible.Root open={open} onOpenChange={(event) => setOpen(event.open)}>
        <Flex gap="3" justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap="1" minW="0" flex="1" flexBasis="64">
            <Flex gap="2" align="center" wrap="wrap">
              <Text fontWeight="semibold">{t('aiAdmin.conv.subscriber')}</Text>
              <Code size="sm">{userId}</Code>
              <PauseBadge pause={pause} />
            </Flex>
            <Text fontSize="sm" color="fg.muted">
              {t('aiAdmin.conv.lastActivity', { time: format.dateTime(conversation.lastActivity) })} · {t('aiAdmin.conv.messages', { count: messages.length })}
            </Text>
            {last && (
              <Text fontSize="sm" truncate data-testid="last-message">
                <Text as="span" color="fg.muted">{`${t(`aiAdmin.conv.role.${last.role}`)}: `}</Text>
                {preview(last.content, 200)}
              </Text>
            )}
          </Stack>
          <Flex gap="2" wrap="wrap">
            {pause ? (
              <Button size="xs" colorPalette="green" onClick={() => !resume.isPending && resume.mutate(userId)} loading={resume.isPending}>{t('aiAdmin.conv.resume')}</Button>
            ) : (
              <Button size="xs" variant="outline" onClick={onPause}>{t('aiAdmin.conv.pause')}</Button>
            )}
            <Collapsible.Trigger asChild>
              <Button size="xs" variant="outline" aria-expanded={open}>{open ? t('aiAdmin.conv.hideMessages') : t('aiAdmin.conv.showMessages')}</Button>
            </Collapsible.Trigger>
            <Button size="xs" variant="outline" colorPalette="red" onClick={onDelete}>{t('aiAdmin.conv.deleteHistory')}</Button>
          </Flex>
        </Flex>
        <Collapsible.Content>
          <Stack gap="2" mt="3" data-testid="messages">
            {messages.map((message, index) => <MessageBubble key={`${message.timestamp}:${index}`} message={message} />)}
          </Stack>
        </Collapsible.Content>
      </Collapsible.Root>
    </Box>
  );
}

function PauseBadge({ pause }: { pause: Conversation['pause'] }) {
  const { t, format } = useTexts();
  if (!pause) return <Badge colorPalette="green" data-testid="pause-state">{t('aiAdmin.conv.automationOn')}</Badge>;
  return (
    <Badge colorPalette="orange" data-testid="pause-state" whiteSpace="normal">
      {pause.until ? t('aiAdmin.conv.pausedUntil', { time: format.dateTime(pause.until), by: pause.by }) : t('aiAdmin.conv.pausedIndefinitely', { by: pause.by })}
    </Badge>
  );
}

/** A message as the chat had it: the customer's on the left, the chat's on the right, with how an answer was made. */
function MessageBubble({ message }: { message: Message }) {
  const { t, format } = useTexts();
  const mine = message.role === 'user';
  const source = message.source ? (sourceLabels[message.source] ? t(sourceLabels[message.source]) : message.source) : null;
  return (
    <Box
      alignSelf={mine ? 'flex-start' : 'flex-end'}
      maxW={{ base: '92%', md: '75%' }}
      bg={mine ? 'bg.muted' : 'blue.subtle'}
      borderRadius="lg"
      px="3"
      py="2"
      data-role={message.role}
    >
      <Flex gap="2" align="center" wrap="wrap" mb="0.5">
        <Text fontSize="xs" fontWeight="semibold">{t(`aiAdmin.conv.role.${message.role}`)}</Text>
        <Text fontSize="xs" color="fg.muted">{format.dateTime(message.timestamp)}</Text>
        {source && <Badge size="xs" variant="outline">{source}</Badge>}
      </Flex>
      <LongText>{message.content}</LongText>
    </Box>
  );
}

/** N hours (1 to 168) or until resumed. */
function PauseDialog({ userId, onClose }: { userId: string; onClose: () => void }) {
  const { t, format } = useTexts();
  const failed = useFailureToast();
  const [mode, setMode] = useState<'hours' | 'untilResumed'>('hours');
  const [hours, setHours] = useState(String(DEFAULT_PAUSE_HOURS));
  const [problem, setProblem] = useState<string | null>(null);
  const pause = usePauseAutomation({
    onSuccess: (reply) => {
      const until = reply.data.until;
      notify({
        title: t('aiAdmin.conv.paused'),
        description: until ? t('aiAdmin.conv.pausedBodyUntil', { userId, time: format.dateTime(until) }) : t('aiAdmin.conv.pausedBodyIndefinitely', { userId }),
        type: 'success',
      });
      onClose();
    },
    onError: failed('aiAdmin.conv.pauseFailed'),
  });
  const submit = () => {
    if (pause.isPending) return;
    if (mode === 'untilResumed') return pause.mutate({ userId, body: { hours: null } });
    const parsed = parsePauseHours(hours);
    if (parsed === null) return setProblem(t('aiAdmin.conv.hoursInvalid', { max: MAX_PAUSE_HOURS }));
    setProblem(null);
    pause.mutate({ userId, body: { hours: parsed } });
  };
  return (
    <Dialog
      open
      onClose={() => !pause.isPending && onClose()}
      title={t('aiAdmin.conv.pauseTitle')}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={pause.isPending}>{t('common.cancel')}</Button>
          <Button colorPalette="orange" type="submit" form="pause-form" loading={pause.isPending}>{t('aiAdmin.conv.pause')}</Button>
        </>
      }
    >
      <Form id="pause-form" onSubmit={submit} noValidate gap="4">
        <Text>{t('aiAdmin.conv.pauseBody', { userId })}</Text>
        <RadioGroup.Root value={mode} onValueChange={(event) => setMode(event.value === 'untilResumed' ? 'untilResumed' : 'hours')}>
          <Stack gap="2">
            {(['hours', 'untilResumed'] as const).map((value) => (
              <RadioGroup.Item key={value} value={value}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{value === 'hours' ? t('aiAdmin.conv.pauseFor') : t('aiAdmin.conv.untilResumed')}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </Stack>
        </RadioGroup.Root>
        {mode === 'hours' && (
          <FormField label={t('aiAdmin.conv.hours')} helper={t('aiAdmin.conv.hoursHelper', { max: MAX_PAUSE_HOURS })} error={problem}>
            <Input name="hours" type="number" inputMode="numeric" min={1} max={MAX_PAUSE_HOURS} step={1} value={hours} onChange={(event) => setHours(event.target.value)} maxW="32" />
          </FormField>
        )}
      </Form>
    </Dialog>
  );
}

function DeleteConversationDialog({ userId, onClose }: { userId: string; onClose: () => void }) {
  const { t } = useTexts();
  const failed = useFailureToast();
  const remove = useDeleteConversation({
    onSuccess: (reply) => {
      notify({ title: t('aiAdmin.conv.deleted'), description: t('aiAdmin.conv.deletedBody', { userId, count: reply.deleted }), type: 'success' });
      onClose();
    },
    onError: (error) => {
      failed('aiAdmin.conv.deleteFailed')(error);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      title={t('aiAdmin.conv.deleteTitle')}
      message={t('aiAdmin.conv.deleteMessage', { userId })}
      confirmLabel={t('aiAdmin.delete')}
      destructive
      busy={remove.isPending}
      onConfirm={() => !remove.isPending && remove.mutate(userId)}
      onCancel={() => !remove.isPending && onClose()}
    />
  );
}
