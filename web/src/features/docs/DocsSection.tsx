import { Card, Code, Flex, Heading, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { CopyButton } from '../../components/CopyButton';
import { PageHeader } from '../../components/PageHeader';
import { useTexts, type MessageKey } from '../../i18n';

const steps: { title: MessageKey; body: MessageKey }[] = [
  { title: 'docs.step1.title', body: 'docs.step1.body' },
  { title: 'docs.step2.title', body: 'docs.step2.body' },
  { title: 'docs.step3.title', body: 'docs.step3.body' },
  { title: 'docs.step4.title', body: 'docs.step4.body' },
];

const resources: { label: MessageKey; href: string }[] = [
  { label: 'docs.link.sheets', href: 'https://developers.google.com/workspace/sheets/api/guides/concepts' },
  { label: 'docs.link.manychat', href: 'https://manychat.github.io/dynamic_block_docs/' },
  { label: 'docs.link.woocommerce', href: 'https://woocommerce.github.io/woocommerce-rest-api-docs/' },
  { label: 'docs.link.qpay', href: 'https://developer.qpay.mn/' },
];

/** The quick-start guide: four setup steps and four resource links. */
export default function DocsSection() {
  const { t } = useTexts();
  const webhookUrl = `${window.location.origin}/api/manychat/webhook`;
  return (
    <>
      <PageHeader title={t('docs.title')} subtitle={t('docs.subtitle')} />
      <Stack gap="6">
        <Heading as="h2" size="lg">{t('docs.stepsTitle')}</Heading>
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" data-testid="docs-steps">
          {steps.map((step) => (
            <Card.Root key={step.title} size="sm">
              <Card.Header><Heading as="h3" size="md">{t(step.title)}</Heading></Card.Header>
              <Card.Body><Text color="fg.muted">{t(step.body)}</Text></Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
        <Flex gap="3" align="center" wrap="wrap">
          <Text fontWeight="medium">{t('docs.webhookUrl')}</Text>
          <Code data-testid="webhook-url">{webhookUrl}</Code>
          <CopyButton value={webhookUrl} what={t('docs.webhookUrl')} />
        </Flex>
        <Heading as="h2" size="lg">{t('docs.resourcesTitle')}</Heading>
        <Stack gap="2" data-testid="docs-links">
          {resources.map((resource) => (
            <Link key={resource.href} href={resource.href} target="_blank" rel="noreferrer" colorPalette="blue">
              {t(resource.label)}
            </Link>
          ))}
        </Stack>
      </Stack>
    </>
  );
}
