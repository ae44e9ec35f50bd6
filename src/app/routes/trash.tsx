import { TrashScreen } from '../../features/trash/trash-screen';

export function TrashRoute() {
  return <TrashScreen />;
}
