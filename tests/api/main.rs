mod concurrency;
mod documents;
mod helpers;
mod htmx;
mod storage;
mod trash;
mod validation;
