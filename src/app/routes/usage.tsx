import { UsageScreen } from '../../features/usage/usage-screen';

export function UsageRoute() {
  return <UsageScreen />;
}
