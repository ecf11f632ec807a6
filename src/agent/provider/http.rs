//! One HTTP provider for every API: `HttpProvider<W>` sends a request shaped by the wire format
//! `W` through the shared [`Transport`] and reads the reply with `W`'s [`Decoder`]. Anthropic and
//! OpenAI differ only in their `WireFormat`: the path, the key header, the request body and the
//! event decoder.

use std::marker::PhantomData;

use bytes::Bytes;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::Value;

use super::decode::Decoder;
use super::key::ApiKey;
use super::transport::{HttpSettings, Transport};
use super::types::{BoxFuture, Provider, ProviderError, Request, Response, Sink};

/// What one API does differently from another.
pub trait WireFormat: Send + Sync + 'static {
    /// The provider's name: `anthropic` or `openai`.
    const NAME: &'static str;
    /// The variable the base URL comes from, named in errors.
    const BASE_VAR: &'static str;
    /// The variable the key comes from, named in errors.
    const KEY_VAR: &'static str;
    /// Appended to the base URL (without its trailing `/`).
    const PATH: &'static str;
    /// The state of one streamed reply.
    type Decoder: Decoder + Default;

    /// The headers that carry the key and name the API version, sent before the common ones.
    ///
    /// # Errors
    ///
    /// [`ProviderError::Config`] for a key that cannot go in a header.
    fn key_headers(key: &ApiKey, headers: &mut HeaderMap) -> Result<(), ProviderError>;

    /// The JSON body of a streamed request.
    fn request_body(request: &Request<'_>) -> Value;
}

/// A client for one model behind the API that `W` describes.
#[derive(Debug)]
pub struct HttpProvider<W> {
    transport: Transport,
    url: String,
    headers: HeaderMap,
    model: String,
    wire: PhantomData<W>,
}

impl<W: WireFormat> HttpProvider<W> {
    /// A provider for `model` at `base_url`; `key` goes in `W`'s key headers when given.
    pub(crate) fn with_key(
        base_url: &str,
        key: Option<ApiKey>,
        model: String,
        settings: HttpSettings,
    ) -> Result<Self, ProviderError> {
        let mut headers = HeaderMap::new();
        if let Some(key) = &key {
            W::key_headers(key, &mut headers)?;
        }
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        headers.insert("accept", HeaderValue::from_static("text/event-stream"));
        let transport = Transport::new(W::NAME, base_url, W::BASE_VAR, W::KEY_VAR, key, settings)?;
        Ok(Self {
            transport,
            url: format!("{}{}", base_url.trim_end_matches('/'), W::PATH),
            headers,
            model,
            wire: PhantomData,
        })
    }
}

impl<W: WireFormat> Provider for HttpProvider<W> {
    fn name(&self) -> &str {
        W::NAME
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn endpoint(&self) -> &str {
        &self.url
    }

    fn send<'a>(
        &'a self,
        request: Request<'a>,
        sink: Sink<'a>,
    ) -> BoxFuture<'a, Result<Response, ProviderError>> {
        let body = Bytes::from(W::request_body(&request).to_string());
        Box::pin(async move {
            self.transport
                .exchange(&self.url, &self.headers, body, W::Decoder::default, sink)
                .await
        })
    }
}
