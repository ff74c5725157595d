import { Box, Flex, Link, Text } from '@chakra-ui/react';
import { useTexts, type MessageKey } from '../i18n';

/** A long page's "Jump to:" line: a link to each of its sections (their element ids). */
export function JumpLinks({ label, sections }: { label: MessageKey; sections: readonly { id: string; title: MessageKey }[] }) {
  const { t } = useTexts();
  return (
    <Box as="nav" aria-label={t(label)} mb="6" mt="-2">
      <Flex gap="1" wrap="wrap" align="center" fontSize="sm">
        <Text as="span" color="fg.muted" me="1">{`${t(label)}:`}</Text>
        {sections.map((section) => (
          <Link key={section.id} href={`#${section.id}`} colorPalette="blue" px="1.5" py="0.5" borderRadius="sm" _hover={{ bg: 'bg.muted' }}>
            {t(section.title)}
          </Link>
        ))}
      </Flex>
    </Box>
  );
}
