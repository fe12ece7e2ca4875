const MAX_FILE_NAME = 200;

/**
 * A file name safe to store and to send back in `Content-Disposition`: the last path segment only (no
 * `../`, no folders from either separator), no control or bidirectional-override characters, no
 * characters that Windows forbids, spaces squeezed, at most 200 characters, and the extension of what
 * the bytes really are (an `invoice.pdf.exe` that is a PDF becomes `invoice.pdf.exe.pdf`; `scan.jpeg`
 * that is a JPEG keeps its name). An empty result is `document.<ext>`.
 */
export function sanitiseFileName(given: string, extension: string): string {
  const lastSegment = given.split(/[\\/]/).pop() ?? "";
  let name = lastSegment
    .normalize("NFC")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are removed
    .replace(/[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, "")
    .replace(/[<>:"|?*]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  const known = extensionsOf(extension);
  const current = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  const withExtension = (stem: string) =>
    `${stem.slice(0, MAX_FILE_NAME - extension.length - 1)}.${extension}`;
  if (!name) return `document.${extension}`;
  if (current && known.includes(current)) {
    const stem = name.slice(0, -(current.length + 1));
    name = stem ? `${stem.slice(0, MAX_FILE_NAME - current.length - 1)}.${current}` : `document.${current}`;
    return name;
  }
  return withExtension(name);
}

function extensionsOf(extension: string): string[] {
  if (extension === "jpg") return ["jpg", "jpeg"];
  if (extension === "tif") return ["tif", "tiff"];
  return [extension];
}
