import { Box, Button, Card, Flex, Heading, HStack, Input, Link, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Form } from '../../components/Form';
import { PageHeader } from '../../components/PageHeader';
import { useTexts } from '../../i18n';
import { errorText } from '../../lib/api';
import { notify } from '../../lib/toast';
import { botReply, MESSAGE_MAX_CHARACTERS, sampleSubscriber, type BotReply, type ReplyLink } from './api';
import { useSendToWebhook } from './mutations';

/** What was said since the section opened: the replies keep their outcome, so a language switch retells the fixed texts. */
type Turn = { from: 'user'; text: string } | { from: 'bot'; reply: BotReply | 'failed' };

/** The chat-platform webhook simulator (document 1, sections 2, 4 and 8): one message awaits its reply at a time. */
export default function ManyChatSection() {
  const { t } = useTexts();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const say = (turn: Turn) => setTurns((all) => [...all, turn]);
  const send = useSendToWebhook({
    onSuccess: (reply) => say({ from: 'bot', reply: botReply(reply) }),
    onError: (error) => {
      say({ from: 'bot', reply: 'failed' });
      notify({ title: t('manychat.failedToast'), description: errorText(error, '') || undefined, type: 'error' });
    },
  });
  const text = draft.trim();

  const submit = () => {
    if (!text || send.isPending) return;
    say({ from: 'user', text });
    setDraft('');
    send.mutate(text);
    // The send button is disabled now: typing goes on in the field.
    input.current?.focus();
  };

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [turns, send.isPending]);

  return (
    <>
      <PageHeader title={t('manychat.title')} subtitle={t('manychat.subtitle')} />
      <Card.Root maxW="3xl" overflow="hidden" data-testid="chat-window">
        <Card.Header py="3" borderBottomWidth="1px">
          <Heading as="h2" size="md">{t('manychat.botName')}</Heading>
          <Text fontSize="sm" color="fg.muted">
            {t('manychat.subscriber', { name: sampleSubscriber.first_name, id: sampleSubscriber.user_id })}
          </Text>
        </Card.Header>
        <Card.Body p="0">
          <Stack ref={log} role="log" aria-label={t('manychat.conversation')} gap="3" p="4" h={{ base: '55vh', md: '480px' }} overflowY="auto" bg="bg.subtle">
            <Bubble from="bot">{t('manychat.sample.greeting')}</Bubble>
            <Bubble from="bot">{t('manychat.sample.hint')}</Bubble>
            {/* Turns are only ever appended, so their place is their identity. */}
            {turns.map((turn, index) =>
              turn.from === 'user' ? (
                <Bubble key={index} from="user">{turn.text}</Bubble>
              ) : turn.reply === 'failed' ? (
                <Bubble key={index} from="bot" failed>{t('manychat.failedReply')}</Bubble>
              ) : (
                <Bubble key={index} from="bot" links={turn.reply.links}>{turn.reply.text ?? t('manychat.noResponse')}</Bubble>
              ),
            )}
            {send.isPending && <TypingIndicator label={t('manychat.typing')} />}
          </Stack>
        </Card.Body>
        <Card.Footer py="3" borderTopWidth="1px">
          <Form onSubmit={submit} w="full">
            <Flex gap="2">
              <Input
                ref={input}
                aria-label={t('manychat.message')}
                placeholder={t('manychat.placeholder')}
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                maxLength={MESSAGE_MAX_CHARACTERS}
                autoComplete="off"
              />
              <Button type="submit" colorPalette="blue" disabled={!text || send.isPending}>{t('manychat.send')}</Button>
            </Flex>
          </Form>
        </Card.Footer>
      </Card.Root>
    </>
  );
}

function Bubble({ from, failed, links = [], children }: { from: 'user' | 'bot'; failed?: boolean; links?: ReplyLink[]; children: ReactNode }) {
  const mine = from === 'user';
  const palette = mine ? 'blue' : failed ? 'red' : 'gray';
  return (
    <Flex direction="column" align={mine ? 'flex-end' : 'flex-start'} gap="1">
      <Box
        data-testid="chat-message"
        data-from={from}
        colorPalette={palette}
        bg={mine ? 'colorPalette.solid' : failed ? 'colorPalette.subtle' : 'bg'}
        color={mine ? 'colorPalette.contrast' : failed ? 'colorPalette.fg' : 'fg'}
        borderWidth={mine ? '0' : '1px'}
        borderRadius="xl"
        px="3"
        py="2"
        maxW="80%"
        whiteSpace="pre-wrap"
        overflowWrap="anywhere"
      >
        {children}
      </Box>
      {links.length > 0 && (
        <Flex gap="3" wrap="wrap" maxW="80%" data-testid="reply-links">
          {links.map((link, index) => (
            <Link key={index} href={link.url} target="_blank" rel="noopener noreferrer" colorPalette="blue" color="colorPalette.fg" fontSize="sm">
              {link.caption}
            </Link>
          ))}
        </Flex>
      )}
    </Flex>
  );
}

function TypingIndicator({ label }: { label: string }) {
  return (
    <Flex role="status" data-testid="typing-indicator">
      <HStack gap="1" px="3" py="3" bg="bg" borderWidth="1px" borderRadius="xl" aria-hidden>
        {[0, 1, 2].map((dot) => (
          <Box key={dot} boxSize="2" borderRadius="full" bg="fg.muted" animation="bounce" animationDelay={`${dot * 150}ms`} _motionReduce={{ animation: 'none' }} />
        ))}
      </HStack>
      <VisuallyHidden>{label}</VisuallyHidden>
    </Flex>
  );
}
