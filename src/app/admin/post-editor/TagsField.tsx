import { type KeyboardEvent, useState } from 'react';
import { normalizeTags } from '../../../blog/post-schema.ts';

/** Tags typed one at a time: each one added is a hidden `tags` field beside its remove button. */
export function TagsField({ initial, onChange }: { initial: string[]; onChange: () => void }) {
  const [tags, setTags] = useState<string[]>(initial);
  const [tagDraft, setTagDraft] = useState('');
  const addTag = () => {
    setTags((current) => normalizeTags([...current, tagDraft]));
    setTagDraft('');
    onChange();
  };
  const onTagKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      addTag();
    }
  };
  return (
    <div className="field">
      <label htmlFor="tag-input">Tags</label>
      <div className="editor-tag-entry">
        <input
          id="tag-input"
          name="tags"
          value={tagDraft}
          onChange={(e) => setTagDraft(e.target.value)}
          onKeyDown={onTagKey}
          aria-describedby="tag-hint"
        />
        <button type="button" className="button button-secondary" onClick={addTag}>
          Add Tag
        </button>
      </div>
      <p id="tag-hint" className="muted">
        Press Enter to add a tag.
      </p>
      <ul className="editor-tags" aria-label="Tags">
        {tags.map((tag) => (
          <li key={tag} className="badge">
            <input type="hidden" name="tags" value={tag} />
            {tag}{' '}
            <button
              type="button"
              className="editor-tag-remove"
              aria-label={`Remove tag ${tag}`}
              onClick={() => {
                setTags((current) => current.filter((t) => t !== tag));
                onChange();
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
