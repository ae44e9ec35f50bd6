import { DevelopersScreen } from '../../features/developers/developers-screen';

export function DevelopersRoute() {
  return <DevelopersScreen />;
}
