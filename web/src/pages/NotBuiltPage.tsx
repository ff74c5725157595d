import { Link as ChakraLink, Text } from '@chakra-ui/react';
import { Link } from 'react-router';
import { NotBuilt } from '../components/NotBuilt';
import { PageHeader } from '../components/PageHeader';
import { useTexts, type MessageKey } from '../i18n';

/** A page of this one that is built already, so the sidebar's entry still leads somewhere useful. */
export interface BuiltPart {
  text: MessageKey;
  path: string;
  label: MessageKey;
}

/** An admin page from the route table that a later release builds. */
export default function NotBuiltPage({ title, built }: { title: MessageKey; built?: BuiltPart }) {
  const { t } = useTexts();
  return (
    <>
      <PageHeader title={t(title)} />
      <NotBuilt name={t(title)} />
      {built && (
        <Text mt="4">
          {t(built.text)}{' '}
          <ChakraLink asChild colorPalette="blue">
            <Link to={built.path}>{t(built.label)}</Link>
          </ChakraLink>
        </Text>
      )}
    </>
  );
}
