import { Button, Group } from '@chakra-ui/react';
import { languages, setLanguage, useTexts } from '../i18n';

/**
 * English / Mongolian, always visible; the choice is kept in localStorage for the next visit. The
 * screen switches once the other language's texts for it have arrived (one small fetch the first time).
 */
export function LanguageSwitch() {
  const { t, language } = useTexts();
  return (
    <Group attached role="group" aria-label={t('language.label')} data-testid="language-switch">
      {languages.map((code) => (
        <Button
          key={code}
          size="xs"
          variant={code === language ? 'solid' : 'outline'}
          aria-pressed={code === language}
          lang={code}
          onClick={() => void setLanguage(code).catch((error: unknown) => console.error('the texts of that language could not be fetched', error))}
        >
          {t(`language.${code}`)}
        </Button>
      ))}
    </Group>
  );
}
