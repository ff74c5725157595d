// First: what the first screen waits on starts before most of the modules below (Chakra, React DOM, the router) are evaluated.
import { queryClient, ready } from './first-screen';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from './components/Toaster';
import { router } from './router';

void ready.then(() =>
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
