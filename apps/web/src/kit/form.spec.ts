import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDisplayName, IsDisplayText, ApiError } from '@app/http';
import { NoFields, readForm } from './form';

class NoteForm {
  @IsString()
  @IsDisplayName()
  @MaxLength(20)
  name!: string;

  @IsOptional()
  @IsString()
  @IsDisplayText()
  note?: string;
}

function refusal(type: new () => object, body: unknown): { status: number; code: string; message: string } {
  try {
    readForm(type, body);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.getStatus(), code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the form was read');
}

describe('readForm', () => {
  it('reads the declared fields, leaves the CSRF token to its guard and an empty input out', () => {
    const form = readForm(NoteForm, { _csrf: 'token', name: 'Almaz', note: '' });
    expect(form).toBeInstanceOf(NoteForm);
    expect([form.name, form.note]).toEqual(['Almaz', undefined]);
  });

  it('refuses a field the form does not have, empty or not, naming each', () => {
    expect(refusal(NoteForm, { name: 'Almaz', merchantId: 'acct_1', extra: '' })).toEqual({ status: 400, code: 'UNKNOWN_FIELD', message: 'Unknown fields: merchantId, extra' });
    expect(refusal(NoFields, { _csrf: 'token', amount: '10' })).toEqual({ status: 400, code: 'UNKNOWN_FIELD', message: 'Unknown field: amount' });
    expect(readForm(NoFields, { _csrf: 'token' })).toBeInstanceOf(NoFields);
  });

  it("applies the API's display-text rules with the API's code and message", () => {
    expect(refusal(NoteForm, { name: 'Alm\u2028az' })).toEqual({
      status: 400,
      code: 'INVALID_DISPLAY_TEXT',
      message: 'name must not hold control, format or line-breaking characters (U+2028 at position 4): they change how it reads on screen',
    });
    expect(refusal(NoteForm, { name: 'Almaz', note: 'a\u2029b' }).code).toBe('INVALID_DISPLAY_TEXT');
    expect(refusal(NoteForm, { name: '\u3164' }).message).toBe('name must not be blank');
    expect(refusal(NoteForm, { name: '...' }).message).toBe('name must contain a letter or a digit');
  });

  it('takes each field once and as text, as a browser sends it', () => {
    expect(() => readForm(NoteForm, { name: ['Almaz', 'Abebe'] })).toThrow('name must be one text value, as a form sends it');
    expect(() => readForm(NoteForm, { name: { constructor: 'x' } })).toThrow('name must be one text value, as a form sends it');
  });

  it('names a missing field as the API does', () => {
    expect(() => readForm(NoteForm, { note: 'hello' })).toThrow('name is required');
  });
});
