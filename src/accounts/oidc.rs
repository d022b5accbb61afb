//! OpenID Connect sign-in, quire's half (the relying party): the authorization
//! code flow with PKCE, a state and a nonce, and the ID token checked before
//! anything in it is believed (signature by a key of the provider's, `alg:
//! none` refused, issuer, audience, expiry, issue time and nonce). The provider's
//! discovery document is read when first needed and kept for an hour; a token
//! signed by a key quire does not know yet makes it read the document again
//! (keys rotate), at most once a minute.

use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreIdToken};
use openidconnect::{
    AccessToken, AccessTokenHash, AuthorizationCode, ClaimsVerificationError, ClientId,
    ClientSecret, CsrfToken, EndpointMaybeSet, EndpointNotSet, EndpointSet, IssuerUrl,
    LogoutRequest, Nonce, OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier,
    PostLogoutRedirectUrl, ProviderMetadataWithLogout, RedirectUrl, Scope,
    SignatureVerificationError, TokenResponse,
};
use serde_json::{Map, Value};
use tokio::sync::RwLock;

/// How quire is registered at the provider, and what it reads from the person.
#[derive(Clone, Debug)]
pub struct Settings {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Shown on the sign-in button.
    pub name: String,
    pub scopes: Vec<String>,
    pub username_claim: String,
    /// `None`: groups are kept in quire, not by the provider.
    pub groups_claim: Option<String>,
    pub admin_group: Option<String>,
    pub create_accounts: bool,
}

/// What the browser keeps (in a short-lived cookie) between leaving for the
/// provider and coming back: all three are random and used once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    pub state: String,
    pub nonce: String,
    pub verifier: String,
}

/// The person the provider vouched for.
#[derive(Clone, Debug)]
pub struct Person {
    pub subject: String,
    /// The user name they would like (the configured claim, else their email).
    pub name: String,
    /// The provider's groups, when quire keeps groups in step with it.
    pub groups: Option<Vec<String>>,
    /// Whether the provider makes them an administrator, when it says.
    pub admin: Option<bool>,
    /// Their email, when the provider says it verified it (`email_verified`).
    pub email: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    /// The provider could not be reached, or answered with something unusable.
    #[error("The identity provider could not be asked: {0}")]
    Unreachable(String),
    /// The provider's answer failed a check: nobody is signed in.
    #[error("The identity provider's answer was refused: {0}")]
    Refused(String),
}

/// How long the discovery document (and its keys) is believed.
const KEEP_METADATA: Duration = Duration::from_secs(3600);
/// The soonest the document is read again because of an unknown key.
const REREAD_AT_MOST_EVERY: Duration = Duration::from_secs(60);
/// How far ahead of quire's clock a token's issue time may be.
const CLOCK_SKEW_SECONDS: i64 = 300;

pub struct Provider {
    pub settings: Settings,
    http: reqwest::Client,
    metadata: RwLock<Option<(Instant, ProviderMetadataWithLogout)>>,
}

impl Provider {
    pub fn new(settings: Settings) -> Result<Self, String> {
        IssuerUrl::new(settings.issuer.clone()).map_err(|e| format!("QUIRE_OIDC_ISSUER: {e}"))?;
        // Redirects are never followed: a provider's answer comes from where
        // its discovery document says, or not at all.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(15))
            .build()
            .map_err(|e| format!("the HTTP client for OpenID Connect: {e}"))?;
        Ok(Self {
            settings,
            http,
            metadata: RwLock::new(None),
        })
    }

    /// The discovery document, read again when older than an hour or when
    /// `reread` (and the last reading is over a minute old).
    async fn metadata(&self, reread: bool) -> Result<ProviderMetadataWithLogout, OidcError> {
        if let Some((at, meta)) = &*self.metadata.read().await {
            let fresh = at.elapsed() < KEEP_METADATA;
            if fresh && (!reread || at.elapsed() < REREAD_AT_MOST_EVERY) {
                return Ok(meta.clone());
            }
        }
        let issuer = IssuerUrl::new(self.settings.issuer.clone())
            .map_err(|e| OidcError::Unreachable(e.to_string()))?;
        let meta = ProviderMetadataWithLogout::discover_async(issuer, &self.http)
            .await
            .map_err(|e| OidcError::Unreachable(describe(&e)))?;
        *self.metadata.write().await = Some((Instant::now(), meta.clone()));
        Ok(meta)
    }

    fn client(
        &self,
        meta: ProviderMetadataWithLogout,
        redirect: &str,
    ) -> Result<Client, OidcError> {
        let redirect =
            RedirectUrl::new(redirect.to_owned()).map_err(|e| OidcError::Refused(e.to_string()))?;
        Ok(CoreClient::from_provider_metadata(
            meta,
            ClientId::new(self.settings.client_id.clone()),
            self.settings.client_secret.clone().map(ClientSecret::new),
        )
        .set_redirect_uri(redirect))
    }

    /// Where to send the browser, and what it must bring back.
    pub async fn start(&self, redirect: &str) -> Result<(String, Flow), OidcError> {
        let client = self.client(self.metadata(false).await?, redirect)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client.authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        );
        for scope in self.settings.scopes.iter().filter(|s| *s != "openid") {
            request = request.add_scope(Scope::new(scope.clone()));
        }
        let (url, state, nonce) = request.set_pkce_challenge(challenge).url();
        let flow = Flow {
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            verifier: verifier.secret().clone(),
        };
        Ok((url.to_string(), flow))
    }

    /// Trades the code the browser brought back for the provider's word on who
    /// signed in, and checks it. `flow` is what `start` gave this browser.
    pub async fn finish(
        &self,
        redirect: &str,
        code: &str,
        flow: &Flow,
    ) -> Result<Person, OidcError> {
        let meta = self.metadata(false).await?;
        let userinfo = meta.userinfo_endpoint().map(|u| u.url().clone());
        let client = self.client(meta, redirect)?;
        let token = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|e| OidcError::Unreachable(e.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(flow.verifier.clone()))
            .request_async(&self.http)
            .await
            .map_err(|e| OidcError::Refused(describe(&e)))?;
        let id_token = token
            .id_token()
            .ok_or_else(|| OidcError::Refused("it sent no ID token".into()))?;
        let nonce = Nonce::new(flow.nonce.clone());
        let checked = match check(&client, id_token, &nonce, token.access_token()) {
            Err(Checked::UnknownKey(_)) => {
                // The provider may have a new key: read its keys again, once.
                let client = self.client(self.metadata(true).await?, redirect)?;
                check(&client, id_token, &nonce, token.access_token())
            }
            other => other,
        };
        let subject = checked.map_err(|e| OidcError::Refused(e.to_string()))?;
        let mut claims = payload(&id_token.to_string())?;
        if let Some(nbf) = claims.get("nbf").and_then(Value::as_i64)
            && nbf > chrono::Utc::now().timestamp() + CLOCK_SKEW_SECONDS
        {
            return Err(OidcError::Refused("the ID token is not valid yet".into()));
        }
        if let Some(url) = userinfo.filter(|_| self.missing_claims(&claims)) {
            let more = self.userinfo(url, token.access_token().secret()).await?;
            if more.get("sub").and_then(Value::as_str) != Some(subject.as_str()) {
                return Err(OidcError::Refused(
                    "its user info names someone other than its ID token".into(),
                ));
            }
            for (k, v) in more {
                claims.entry(k).or_insert(v);
            }
        }
        Ok(self.person(subject, &claims))
    }

    /// Whether the ID token lacks what quire reads, so the user info is asked.
    fn missing_claims(&self, claims: &Map<String, Value>) -> bool {
        let s = &self.settings;
        !claims.contains_key(&s.username_claim)
            || s.groups_claim
                .as_ref()
                .is_some_and(|g| !claims.contains_key(g))
    }

    async fn userinfo(
        &self,
        url: openidconnect::url::Url,
        access: &str,
    ) -> Result<Map<String, Value>, OidcError> {
        let res = self
            .http
            .get(url)
            .bearer_auth(access)
            .header("Accept", "application/json")
            .send()
            .await
            .map_err(|e| OidcError::Unreachable(format!("its user info: {e}")))?;
        if !res.status().is_success() {
            return Err(OidcError::Unreachable(format!(
                "its user info answered {}",
                res.status()
            )));
        }
        res.json::<Map<String, Value>>()
            .await
            .map_err(|e| OidcError::Unreachable(format!("its user info: {e}")))
    }

    fn person(&self, subject: String, claims: &Map<String, Value>) -> Person {
        let s = &self.settings;
        let text = |name: &str| {
            claims
                .get(name)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
        };
        let name = text(&s.username_claim)
            .or_else(|| text("email"))
            .unwrap_or_else(|| subject.clone());
        let groups = s.groups_claim.as_ref().map(|g| groups_of(claims.get(g)));
        let admin = match (&s.admin_group, &groups) {
            (Some(admin), Some(groups)) => {
                Some(groups.iter().any(|g| g.eq_ignore_ascii_case(admin)))
            }
            _ => None,
        };
        let verified = claims.get("email_verified").and_then(Value::as_bool) == Some(true);
        let email = text("email").filter(|e| verified && e.contains('@') && e.len() <= 254);
        Person {
            subject,
            name,
            groups,
            admin,
            email,
        }
    }

    /// The provider's sign-out page, coming back to `back` afterwards, when the
    /// provider has one (as its discovery document says).
    pub async fn end_session_url(&self, back: &str) -> Option<String> {
        let meta = self.metadata(false).await.ok()?;
        let end = meta.additional_metadata().end_session_endpoint.clone()?;
        let mut request =
            LogoutRequest::from(end).set_client_id(ClientId::new(self.settings.client_id.clone()));
        if let Ok(back) = PostLogoutRedirectUrl::new(back.to_owned()) {
            request = request.set_post_logout_redirect_uri(back);
        }
        Some(request.http_get_url().to_string())
    }
}

/// The client a discovery document makes: an authorization endpoint, and
/// maybe token and user info endpoints.
type Client = CoreClient<
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointMaybeSet,
    EndpointMaybeSet,
>;

/// Why an ID token was refused; an unknown key may only mean the keys rotated.
#[derive(Debug, thiserror::Error)]
enum Checked {
    #[error("{0}")]
    UnknownKey(String),
    #[error("{0}")]
    Bad(String),
}

/// Checks the ID token (and that the access token is the one it vouches for);
/// the subject it names.
fn check(
    client: &Client,
    id_token: &CoreIdToken,
    nonce: &Nonce,
    access: &AccessToken,
) -> Result<String, Checked> {
    let now = chrono::Utc::now();
    let verifier = client
        .id_token_verifier()
        .set_issue_time_verifier_fn(move |iat| {
            if iat.timestamp() > now.timestamp() + CLOCK_SKEW_SECONDS {
                Err("the ID token says it was issued in the future".into())
            } else {
                Ok(())
            }
        });
    let claims = id_token.claims(&verifier, nonce).map_err(|e| match e {
        ClaimsVerificationError::SignatureVerification(
            SignatureVerificationError::NoMatchingKey,
        ) => Checked::UnknownKey(e.to_string()),
        e => Checked::Bad(e.to_string()),
    })?;
    if let Some(expected) = claims.access_token_hash() {
        let bad = |e: &dyn std::fmt::Display| Checked::Bad(format!("access token hash: {e}"));
        let alg = id_token.signing_alg().map_err(|e| bad(&e))?;
        let key = id_token.signing_key(&verifier).map_err(|e| bad(&e))?;
        let actual = AccessTokenHash::from_token(access, alg, key).map_err(|e| bad(&e))?;
        if actual != *expected {
            return Err(Checked::Bad(
                "the access token is not the one the ID token vouches for".into(),
            ));
        }
    }
    Ok(claims.subject().to_string())
}

/// A JSON Web Token's claims, read without checking: only for a token whose
/// signature and claims `check` has passed.
fn payload(jwt: &str) -> Result<Map<String, Value>, OidcError> {
    let bad = || OidcError::Refused("its ID token is not a JSON Web Token".into());
    let middle = jwt.split('.').nth(1).ok_or_else(bad)?;
    let bytes = URL_SAFE_NO_PAD.decode(middle).map_err(|_| bad())?;
    serde_json::from_slice(&bytes).map_err(|_| bad())
}

/// A groups claim as names: a list of strings, or one string.
fn groups_of(claim: Option<&Value>) -> Vec<String> {
    match claim {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        Some(Value::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    }
}

/// An error with its causes, for a page and the log.
fn describe(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
