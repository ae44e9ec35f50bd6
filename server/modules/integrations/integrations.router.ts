import { Router } from 'express';
import { authOf } from '../../auth/middleware.js';
import { createIntegrationBody, integrationIdParam, updateIntegrationBody } from '../../contracts/oauth.js';
import { sendNoContent, sendSuccess, wholeList, sendList } from '../../lib/envelope.js';
import { parse } from '../../lib/validate.js';
import * as service from './integrations.service.js';

/** Extensions: the vendor's integrations (OAuth clients), and the ones a member connected. */
export function integrationsRouter(ctx: service.IntegrationsDeps): Router {
  const router = Router();

  router.get('/integrations', async (req, res) => {
    const list = await service.listIntegrations(ctx, authOf(req));
    sendList(res, 'integrations', list, wholeList(list.length));
  });

  router.post('/integrations', async (req, res) => {
    const record = await service.createIntegration(ctx, authOf(req), parse(createIntegrationBody, req.body));
    sendSuccess(res, 201, 'integrations', { integrations: record });
  });

  router.put('/integrations/:integration_id', async (req, res) => {
    const { integration_id } = parse(integrationIdParam, req.params);
    const record = await service.updateIntegration(ctx, authOf(req), integration_id, parse(updateIntegrationBody, req.body));
    sendSuccess(res, 200, 'integrations', { integrations: record });
  });

  router.post('/integrations/:integration_id/secret', async (req, res) => {
    const record = await service.rotateSecret(ctx, authOf(req), parse(integrationIdParam, req.params).integration_id);
    sendSuccess(res, 200, 'integrations', { integrations: record });
  });

  router.delete('/integrations/:integration_id', async (req, res) => {
    await service.deleteIntegration(ctx, authOf(req), parse(integrationIdParam, req.params).integration_id);
    sendNoContent(res);
  });

  router.get('/connections', async (req, res) => {
    const list = await service.listConnections(ctx, authOf(req));
    sendList(res, 'connections', list, wholeList(list.length));
  });

  router.delete('/connections/:integration_id', async (req, res) => {
    await service.disconnect(ctx, authOf(req), parse(integrationIdParam, req.params).integration_id);
    sendNoContent(res);
  });

  return router;
}
