// Types of the rate-limiter-flexible classes imported from their own files (services/rate-limits.ts): each file
// exports its class as module.exports; the package's own declarations describe them.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  export { RateLimiterMemory as default } from 'rate-limiter-flexible';
}
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  export { RateLimiterRedis as default } from 'rate-limiter-flexible';
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  export { RateLimiterRes as default } from 'rate-limiter-flexible';
}
