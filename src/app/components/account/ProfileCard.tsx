import { Form } from 'react-router';
import type { Profile } from '../../../identity/account.ts';
import { IMAGE_ACCEPT } from '../../admin/upload.ts';

/** Name, username and avatar. The avatar goes through the upload pipeline (POST /api/users/avatar). */
export function ProfileCard({ profile, busy }: { profile: Profile; busy: boolean }) {
  const name = [profile.firstName, profile.lastName].filter(Boolean).join(' ') || profile.username;
  return (
    <section className="card account-card" id="profile" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <div className="avatar-row">
        {profile.avatarUrl ? (
          <img className="avatar" src={profile.avatarUrl} alt={`Avatar of ${name}`} width={96} height={96} />
        ) : (
          <span className="avatar avatar-empty" aria-hidden="true">
            {(name || '?').slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="avatar-forms">
          <form
            method="post"
            action="/api/users/avatar"
            encType="multipart/form-data"
            className="avatar-upload"
          >
            <div className="field">
              <label htmlFor="avatar-file">New avatar (JPEG, PNG, WebP or GIF, less than 10MB)</label>
              <input id="avatar-file" name="file" type="file" accept={IMAGE_ACCEPT} required />
            </div>
            <button type="submit" className="button button-small button-secondary">
              Upload avatar
            </button>
          </form>
          {profile.avatarUrl && (
            <Form method="post">
              <input type="hidden" name="intent" value="avatar-remove" />
              <button type="submit" className="button button-small button-secondary" disabled={busy}>
                Remove avatar
              </button>
            </Form>
          )}
        </div>
      </div>
      <Form method="post" className="account-form">
        <input type="hidden" name="intent" value="profile" />
        <div className="field-pair">
          <div className="field">
            <label htmlFor="profile-first-name">First name</label>
            <input
              id="profile-first-name"
              name="firstName"
              autoComplete="given-name"
              maxLength={100}
              defaultValue={profile.firstName}
            />
          </div>
          <div className="field">
            <label htmlFor="profile-last-name">Last name</label>
            <input
              id="profile-last-name"
              name="lastName"
              autoComplete="family-name"
              maxLength={100}
              defaultValue={profile.lastName}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor="profile-username">Username</label>
          <input
            id="profile-username"
            name="username"
            autoComplete="username"
            required
            maxLength={64}
            pattern="[A-Za-z0-9_\-]+"
            defaultValue={profile.username}
            readOnly={!profile.usernameEditable}
            aria-describedby="profile-username-hint"
          />
          <p id="profile-username-hint" className="field-hint">
            {profile.usernameEditable
              ? 'Letters, numbers, underscore or hyphen. You sign in with it.'
              : 'Your username comes from the identity service.'}
          </p>
        </div>
        <button type="submit" className="button" disabled={busy}>
          Save profile
        </button>
      </Form>
    </section>
  );
}
