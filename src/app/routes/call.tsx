import { useParams } from 'react-router';
import { CallViewer } from '../../features/calls/call-viewer';

export function CallRoute() {
  const { id = '' } = useParams();
  return <CallViewer key={id} id={id} />;
}
