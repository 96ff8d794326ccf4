import { Notice } from '../Notice.tsx';
import { FieldError, TextField } from '../TextField.tsx';
import { useImageUpload } from '../upload.ts';

type Props = {
  url: string;
  file: string;
  setUrl: (url: string) => void;
  setFile: (file: string) => void;
  fields: Record<string, string | undefined>;
  onChange: () => void;
};

/** The featured image: a URL, or a file of ours (uploaded, or dropped on the field). */
export function FeaturedImageFields({ url, file, setUrl, setFile, fields, onChange }: Props) {
  const featuredUpload = useImageUpload((uploaded) => {
    setFile(uploaded);
    onChange();
  });
  return (
    <>
      <TextField
        name="featuredImage"
        label="Featured image URL"
        inputMode="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={fields.featuredImage}
      />
      <div className="field drop-zone" {...featuredUpload.dropTarget}>
        <label htmlFor="featuredImageFile">Featured image file</label>
        <input
          id="featuredImageFile"
          name="featuredImageFile"
          value={file}
          onChange={(e) => setFile(e.target.value)}
          aria-invalid={fields.featuredImageFile ? true : undefined}
          aria-describedby={[
            'featured-upload-hint',
            fields.featuredImageFile ? 'featuredImageFile-error' : '',
          ]
            .filter(Boolean)
            .join(' ')}
        />
        <FieldError id="featuredImageFile-error" message={fields.featuredImageFile} />
        <label htmlFor="featured-upload" className="editor-sub-label">
          Upload featured image
        </label>
        <input id="featured-upload" {...featuredUpload.pickerProps} />
        <p id="featured-upload-hint" className="muted">
          Or drop an image here.
        </p>
        <Notice result={featuredUpload.notice} />
      </div>
    </>
  );
}
