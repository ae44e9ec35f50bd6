import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { StatusProvider } from '../components/ui/status-message';

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <StatusProvider>{children}</StatusProvider>
    </QueryClientProvider>
  );
}
