import { SettingsScreen } from '../../features/settings/settings-screen';

export function SettingsRoute() {
  return <SettingsScreen />;
}
