// An OAuth 2.x / OpenID authorization server for tests: node-oidc-provider
// (certified, npm `oidc-provider`) on 127.0.0.1 with its development
// login and consent pages. Prints its issuer URL on stdout when ready.
// With RESOURCE set it also issues JWT access tokens for that resource
// (RFC 8707; an MCP server's canonical URL), scope `mcp`.
import Provider from 'oidc-provider';

const resource = process.env.RESOURCE || '';

const port = Number(process.env.PORT || 0);
const clients = JSON.parse(process.env.OIDC_CLIENTS || '[]');
const server = (await import('node:http')).createServer();
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const provider = new Provider(issuer, {
  clients,
  pkce: { required: () => true },
  scopes: ['openid', 'offline_access', 'pets:read', 'pets:write'],
  features: {
    devInteractions: { enabled: true },
    deviceFlow: { enabled: true },
    revocation: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: resource !== '',
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, indicator) => {
        if (indicator !== resource) throw new Error('unknown resource');
        return { scope: 'mcp', audience: resource, accessTokenFormat: 'jwt', accessTokenTTL: 3600 };
      },
    },
  },
  issueRefreshToken: async () => true,
  ttl: { AccessToken: Number(process.env.ACCESS_TOKEN_TTL || 3600) },
  findAccount: async (ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
});
provider.proxy = false;
server.on('request', provider.callback());
console.log(issuer);
