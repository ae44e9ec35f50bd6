import { CallsScreen } from '../../features/calls/calls-screen';

export function CallsRoute() {
  return <CallsScreen />;
}
