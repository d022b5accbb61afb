// A real OpenID provider on loopback, for quire's sign-in tests.
//
// It runs a certified OpenID provider implementation (the dependency in
// package.json) over plain HTTP on 127.0.0.1 with one confidential client,
// people read from a JSON file, a real login form, automatic consent, a
// simple sign-out page, and a switch that spoils the next ID token so tests
// can check that quire refuses it.
//
// Test-only endpoints besides the provider's own:
//   GET  /test/health   answers 200 "ok"
//   POST /test/tamper   JSON {"mode": "<mode>"} or {"mode": null}; see tamper()
//
// Settings come from the environment:
//   OIDC_PORT                 port to listen on; 0 picks any free port
//   OIDC_CLIENT_ID            the one client's id
//   OIDC_CLIENT_SECRET        its secret (client_secret_basic or client_secret_post)
//   OIDC_REDIRECT_URI         its one redirect URI
//   OIDC_POST_LOGOUT_URI      its one post-logout redirect URI
//   OIDC_ACCOUNTS             path of the JSON file of people, read again on every use
//   OIDC_EXIT_ON_STDIN_CLOSE  "1": also exit when stdin closes
//
// Once listening it prints one line, `listening http://127.0.0.1:<port>`, to
// stdout and then writes nothing more there; errors go to stderr.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import { CompactSign, exportJWK, generateKeyPair, importJWK } from 'jose';
import Provider from 'oidc-provider';

function setting(name) {
  const value = process.env[name];
  if (value === undefined || value === '') {
    process.stderr.write(`provider.js: environment variable ${name} is not set\n`);
    process.exit(2);
  }
  return value;
}

const port = Number(setting('OIDC_PORT'));
const clientId = setting('OIDC_CLIENT_ID');
const clientSecret = setting('OIDC_CLIENT_SECRET');
const redirectUri = setting('OIDC_REDIRECT_URI');
const postLogoutUri = setting('OIDC_POST_LOGOUT_URI');
const accountsPath = setting('OIDC_ACCOUNTS');

// The people file is read on every use, so a test can edit it between two
// sign-ins (for example to move someone to another group).
function readAccounts() {
  return JSON.parse(readFileSync(accountsPath, 'utf8'));
}

// Looks a person up by subject; returns their login name and record.
function accountBySub(sub) {
  for (const [login, person] of Object.entries(readAccounts())) {
    if (person.sub === sub) return { login, person };
  }
  return undefined;
}

// Provider state (sessions, codes, grants) lives in a plain map for the life
// of the process. Writing our own keeps the package's warning about its
// development store off stderr and never drops entries.
const store = new Map();
class MemoryStore {
  constructor(model) { this.model = model; }
  key(id) { return `${this.model}:${id}`; }
  async upsert(id, payload, expiresIn) {
    const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : Infinity;
    store.set(this.key(id), { payload, expiresAt });
    if (payload.grantId) {
      const keys = store.get(`grant:${payload.grantId}`)?.payload ?? [];
      store.set(`grant:${payload.grantId}`, { payload: [...keys, this.key(id)], expiresAt: Infinity });
    }
    if (payload.uid) store.set(`uid:${payload.uid}`, { payload: id, expiresAt });
    if (payload.userCode) store.set(`userCode:${payload.userCode}`, { payload: id, expiresAt });
  }
  async find(id) {
    const entry = store.get(this.key(id));
    return entry && entry.expiresAt > Date.now() ? entry.payload : undefined;
  }
  async findByUid(uid) { return this.find(store.get(`uid:${uid}`)?.payload); }
  async findByUserCode(code) { return this.find(store.get(`userCode:${code}`)?.payload); }
  async consume(id) {
    const entry = store.get(this.key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) { store.delete(this.key(id)); }
  async revokeByGrantId(grantId) {
    for (const key of store.get(`grant:${grantId}`)?.payload ?? []) store.delete(key);
    store.delete(`grant:${grantId}`);
  }
}

// The ID token signing key is made here rather than by the package, because
// the tamper switch below needs the private half to re-sign altered tokens.
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingJwk = {
  ...(await exportJWK(privateKey)),
  kid: `test-${randomBytes(6).toString('hex')}`,
  alg: 'RS256',
  use: 'sig',
};
const signingKey = await importJWK(signingJwk, 'RS256');

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title, body) {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title></head>\n`
    + `<body><h1>${title}</h1>\n${body}\n</body></html>\n`;
}

function loginPage(uid, message) {
  return page('Sign in to the test provider', `${message ? `<p class="error">${message}</p>\n` : ''}`
    + `<form method="post" action="/interaction/${escapeHtml(uid)}/login">\n`
    + '<label>Name <input name="login" autofocus></label>\n'
    + '<label>Password <input name="password" type="password"></label>\n'
    + '<button type="submit">Sign in</button>\n</form>');
}

// Listen first, because the issuer URL has to carry the real port when
// OIDC_PORT is 0; requests are handed to the provider once it exists.
let handler = (req, res) => { res.statusCode = 503; res.end(); };
const server = createServer((req, res) => handler(req, res));
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(port, '127.0.0.1', resolve);
});
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  adapter: MemoryStore,
  clients: [{
    client_id: clientId,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [postLogoutUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  }],
  // The client may send its secret in the Basic header or in the form body.
  clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
  responseTypes: ['code'],
  pkce: { methods: ['S256'], required: () => true },
  jwks: { keys: [signingJwk] },
  scopes: ['openid'],
  claims: {
    openid: ['sub'],
    profile: ['name', 'preferred_username'],
    email: ['email', 'email_verified'],
    groups: ['groups'],
  },
  // Put the claims of the granted scopes in the ID token too, not only at the
  // userinfo endpoint, as many real providers do.
  conformIdTokenClaims: false,
  async findAccount(ctx, sub) {
    if (!accountBySub(sub)) return undefined;
    return {
      accountId: sub,
      async claims() {
        const found = accountBySub(sub); // read again: the file may have changed
        if (!found) return { sub };
        const { login, person } = found;
        const claims = {
          sub,
          preferred_username: login,
          name: person.name,
          email: person.email,
          email_verified: person.email_verified,
        };
        if (person.groups !== undefined) claims.groups = person.groups;
        return claims;
      },
    };
  },
  // No consent page: every sign-in is granted whatever it asked for, on a
  // grant that belongs to the person who just signed in.
  async loadExistingGrant(ctx) {
    const { Grant } = ctx.oidc.provider;
    const { accountId } = ctx.oidc.account;
    const grantId = ctx.oidc.result?.consent?.grantId
      || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    let grant = grantId ? await Grant.find(grantId) : undefined;
    if (!grant || grant.accountId !== accountId) {
      grant = new Grant({ accountId, clientId: ctx.oidc.client.clientId });
    }
    grant.addOIDCScope([...ctx.oidc.requestParamOIDCScopes].join(' '));
    grant.addOIDCClaims([...ctx.oidc.requestParamClaims]);
    await grant.save();
    return grant;
  },
  // Signed cookies that work over plain http: never `secure`, and `lax`
  // rather than `none`, which browsers refuse without `secure`.
  cookies: {
    keys: [randomBytes(32).toString('hex')],
    long: { signed: true, httpOnly: true, sameSite: 'lax' },
    short: { signed: true, httpOnly: true, sameSite: 'lax' },
  },
  // Fixed lifetimes, set so the package does not print notices about defaults.
  ttl: {
    AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600,
    Interaction: 3600, Session: 86400, Grant: 86400,
  },
  features: {
    devInteractions: { enabled: false },
    userinfo: { enabled: true },
    rpInitiatedLogout: {
      enabled: true,
      // The sign-out question. The package's form carries a hidden `xsrf`
      // field; the button is put inside that form so that a simple client
      // finds both in one place, and sends logout=yes with it.
      async logoutSource(ctx, form) {
        const button = '<button type="submit" name="logout" value="yes">Sign out</button>';
        ctx.type = 'html';
        ctx.body = page('Sign out of the test provider', form.replace('</form>', `${button}</form>`));
      },
      // Shown only when the client gave no post_logout_redirect_uri.
      async postLogoutSuccessSource(ctx) {
        ctx.type = 'html';
        ctx.body = page('Signed out', '<p>You are signed out.</p>');
      },
    },
  },
  async renderError(ctx, out) {
    ctx.type = 'html';
    ctx.body = page('Error', Object.entries(out)
      .map(([key, value]) => `<p>${escapeHtml(key)}: ${escapeHtml(value)}</p>`).join('\n'));
  },
});

// Reads a small request body as text.
async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

// The login form for an interaction, and its answer.
provider.use(async (ctx, next) => {
  const match = ctx.path.match(/^\/interaction\/([^/]+)(\/login)?$/);
  if (!match) return next();
  ctx.set('cache-control', 'no-store');
  try {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid !== match[1]) throw new Error('interaction does not match');
    if (ctx.method === 'GET' && !match[2]) {
      ctx.type = 'html';
      ctx.body = loginPage(details.uid);
      return undefined;
    }
    if (ctx.method !== 'POST' || !match[2]) {
      ctx.status = 405;
      return undefined;
    }
    const form = new URLSearchParams(await readBody(ctx.req));
    const person = readAccounts()[form.get('login') ?? ''];
    if (!person || person.password !== form.get('password')) {
      ctx.status = 401;
      ctx.type = 'html';
      ctx.body = loginPage(details.uid, 'Wrong name or password');
      return undefined;
    }
    // Consent needs no answer here: loadExistingGrant grants it.
    const to = await provider.interactionResult(ctx.req, ctx.res,
      { login: { accountId: person.sub } }, { mergeWithLastSubmission: false });
    ctx.status = 303;
    ctx.redirect(to);
  } catch (err) {
    // Most often an unknown or expired interaction, or a missing cookie.
    ctx.status = 400;
    ctx.type = 'text';
    ctx.body = `interaction failed: ${err.error_description ?? err.message}\n`;
  }
  return undefined;
});

// How the next ID token from the token endpoint is spoiled, if at all.
let tamperMode = null;
const tamperModes = new Set(['other-key', 'alg-none', 'other-audience', 'expired',
  'not-yet-valid', 'other-issuer', 'no-nonce', 'other-nonce']);

const encodePart = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decodePart = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

// Returns the ID token altered as `mode` says. Apart from `other-key` and
// `alg-none`, the altered claims are signed again with the real key, so only
// the claim checks of the relying party can catch them.
async function tamper(idToken, mode) {
  const [headerPart, payloadPart] = idToken.split('.');
  const header = decodePart(headerPart);
  const payload = decodePart(payloadPart);
  const now = Math.floor(Date.now() / 1000);
  let key = signingKey;
  switch (mode) {
    case 'other-key': // same header and claims, but a key nobody published
      key = (await generateKeyPair('RS256')).privateKey;
      break;
    case 'alg-none': { // unsigned: header says "none", signature is empty
      const noneHeader = header.kid ? { alg: 'none', kid: header.kid } : { alg: 'none' };
      return `${encodePart(noneHeader)}.${payloadPart}.`;
    }
    case 'other-audience': payload.aud = 'someone-else'; break;
    case 'expired': payload.iat = now - 7200; payload.exp = now - 3600; break;
    case 'not-yet-valid': payload.iat = now + 3600; payload.nbf = now + 3600; payload.exp = now + 7200; break;
    case 'other-issuer': payload.iss = 'http://127.0.0.1:1/evil'; break;
    case 'no-nonce': delete payload.nonce; break;
    case 'other-nonce': payload.nonce = randomBytes(16).toString('base64url'); break;
    default: throw new Error(`unknown tamper mode ${mode}`);
  }
  return new CompactSign(Buffer.from(JSON.stringify(payload)))
    .setProtectedHeader(header).sign(key);
}

// The test-only endpoints: health and the tamper switch. Also spoils the
// token endpoint's answer once after the switch was set.
provider.use(async (ctx, next) => {
  if (ctx.path === '/test/health' && ctx.method === 'GET') {
    ctx.type = 'text';
    ctx.body = 'ok';
    return;
  }
  if (ctx.path === '/test/tamper' && ctx.method === 'POST') {
    let mode;
    try {
      ({ mode } = JSON.parse(await readBody(ctx.req)));
    } catch {
      mode = undefined;
    }
    if (mode !== null && !tamperModes.has(mode)) {
      ctx.status = 400;
      ctx.body = { error: `mode must be null or one of: ${[...tamperModes].join(', ')}` };
      return;
    }
    tamperMode = mode;
    ctx.body = { mode };
    return;
  }
  await next();
  if (ctx.path === '/token' && tamperMode && ctx.status === 200 && ctx.body?.id_token) {
    const mode = tamperMode;
    tamperMode = null; // applies to one response only
    ctx.body = { ...ctx.body, id_token: await tamper(ctx.body.id_token, mode) };
  }
});

provider.on('server_error', (ctx, err) => process.stderr.write(`provider error: ${err.stack}\n`));

handler = provider.callback();
process.stdout.write(`listening ${issuer}\n`);

function stop() {
  server.close();
  server.closeAllConnections();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

// A test that dies closes our stdin; only watched when asked, because a
// process started with stdin from /dev/null would otherwise stop at once.
if (process.env.OIDC_EXIT_ON_STDIN_CLOSE === '1') {
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}
