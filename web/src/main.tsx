import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from './components/Toaster';
import { loadTexts, shellBundles } from './i18n';
import { createQueryClient } from './lib/query-client';
import { router } from './router';

const queryClient = createQueryClient();

// The shell's texts in the language in use first; rendered all the same if they cannot be fetched.
void loadTexts(...shellBundles)
  .catch((error: unknown) => console.error('the texts could not be fetched', error))
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <ChakraProvider value={defaultSystem}>
          <QueryClientProvider client={queryClient}>
            <RouterProvider router={router} />
            <Toaster />
          </QueryClientProvider>
        </ChakraProvider>
      </StrictMode>,
    ),
  );
