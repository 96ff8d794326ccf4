/**
 * Imported first by every production entry point. React, React Router and other libraries pick
 * their development or production build from process.env.NODE_ENV when they are loaded; the
 * config's own default ('production') is not enough, so an unset NODE_ENV is made explicit here,
 * before anything else is imported. An invalid value is left for src/config.ts to refuse.
 */
process.env.NODE_ENV ??= 'production';
