import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import { settingsInput, updateDialSettingsBody } from '../../contracts/dial-settings.js';
import { oneOfOne, sendSuccess } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import { getSettings, updateSettings, type DialSettingsDeps } from './dial-settings.service.js';

/** GET and PUT /rest/1/dialsession/settings: settings.settings beside paging fields, as the contract shows. */
export function dialSettingsRouter(ctx: DialSettingsDeps): Router {
  const router = Router();
  router.get('/dialsession/settings', async (req, res) => {
    sendSuccess(res, 200, 'settings', { settings: await getSettings(ctx, authOf(req)), ...oneOfOne() });
  });
  router.put('/dialsession/settings', async (req, res) => {
    sendSuccess(res, 200, 'settings', {
      settings: await updateSettings(ctx, authOf(req), parse(updateDialSettingsBody, settingsInput(req.body))),
      ...oneOfOne(),
    });
  });
  return router;
}
