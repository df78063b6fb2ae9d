import type { RequestHandler } from 'express';
import { tenantContext } from '../../tenancy/tenantContext';
import type { OperatorOperation } from './operatorOperation';
import { operatorOpenApi } from './operatorOpenApi';

/**
 * `GET /operator/v1/openapi.json`: the document of the tenant's operator API, with the
 * server URL the request came in by (`/t/<tenant>/operator/v1` on the shared host, `/operator/v1`
 * on the tenant's own), relative so it is right behind any proxy. Built once per tenant and URL.
 */
export function openApiRoute(operations: readonly OperatorOperation[]): RequestHandler {
  const built = new Map<string, string>();
  return (_req, res) => {
    const { tenant, basePath } = tenantContext(res);
    const serverUrl = `${basePath}operator/v1`;
    const cacheKey = `${tenant.id}\n${serverUrl}`;
    let json = built.get(cacheKey);
    if (json === undefined) {
      json = JSON.stringify(operatorOpenApi(operations, { tenantName: tenant.name, serverUrl }));
      built.set(cacheKey, json);
    }
    res.type('application/json').send(json);
  };
}
