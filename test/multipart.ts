// multipart/form-data bodies as PHP's curl (an array) or a browser sends them, built by the
// platform's own FormData, so the boundary and the parts' headers are what real clients write.

export interface MultipartBody {
  payload: Buffer;
  contentType: string;
}

export async function multipart(fields: Record<string, string> | [string, string][], files: { name: string; filename: string; content: string }[] = []): Promise<MultipartBody> {
  const form = new FormData();
  for (const [name, value] of Array.isArray(fields) ? fields : Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(file.name, new Blob([file.content], { type: 'text/plain' }), file.filename);
  const request = new Request('http://client.test/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
