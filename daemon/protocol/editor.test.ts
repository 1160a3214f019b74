import { describe, expect, it } from 'vitest';
import { ProtocolError, decodeTileFrame, encodeTileFrame, parseClientMessage } from './editor.ts';

describe('editing protocol codecs', () => {
  it('accepts well-formed messages of editor.md', () => {
    expect(parseClientMessage('{"type":"load","token":"t","lang":"de-DE"}')).toEqual({ type: 'load', token: 't', lang: 'de-DE' });
    expect(parseClientMessage('{"type":"key","event":"input","charCode":97,"keyCode":0}').type).toBe('key');
    expect(parseClientMessage('{"type":"tiles","part":0,"width":256,"height":256,"tileTwipWidth":3840,"tileTwipHeight":3840,"positions":[[0,0]]}').type).toBe(
      'tiles',
    );
    expect(parseClientMessage('{"type":"dialogEvent","windowId":10,"event":{"id":"ok","cmd":"click","type":"responsebutton"}}')).toEqual({
      type: 'dialogEvent',
      windowId: 10,
      event: { id: 'ok', cmd: 'click', type: 'responsebutton' },
    });
    expect(parseClientMessage('{"type":"commentDraft","command":".uno:ReplyComment","args":"{}"}')).toEqual({
      type: 'commentDraft',
      command: '.uno:ReplyComment',
      args: '{}',
    });
    expect(parseClientMessage('{"type":"commentDraft"}')).toEqual({ type: 'commentDraft' });
  });
  it('refuses broken frames, naming what is wrong', () => {
    const bad: Array<[string, RegExp]> = [
      ['nope', /JSON object/],
      ['[1]', /JSON object/],
      ['{"type":"format-disk"}', /unknown message type/],
      ['{"type":"load"}', /load\.token must be a string/],
      ['{"type":"key","event":"down","charCode":1,"keyCode":0}', /key\.event must be one of input, up/],
      ['{"type":"mouse","event":"move","x":"1","y":0,"count":1,"buttons":0,"modifier":0}', /mouse\.x must be a number/],
      ['{"type":"load","token":"t","readonly":"yes"}', /load\.readonly must be absent or a boolean/],
      ['{"type":"dialogEvent","windowId":10,"event":"click"}', /dialogEvent\.event must be a object/],
      ['{"type":"dialogEvent","windowId":10,"event":{"id":"ok"}}', /dialogEvent\.event\.cmd must be a non-empty string/],
      ['{"type":"dialogEvent","windowId":10,"event":{"id":"f","cmd":"change","data":1}}', /dialogEvent\.event\.data must be absent or a string/],
      // A draft is only ever one of the comment commands (the daemon sends it as input when the view leaves).
      ['{"type":"commentDraft","command":".uno:Save"}', /commentDraft\.command must be one of \.uno:InsertAnnotation/],
    ];
    for (const [text, why] of bad) expect(() => parseClientMessage(text), text).toThrow(why);
    expect(() => parseClientMessage('{}')).toThrow(ProtocolError);
  });
  it('tile frames round-trip, and a truncated one is refused', () => {
    const header = {
      type: 'tile' as const,
      part: 1,
      mode: 0,
      x: 3840,
      y: 0,
      tileTwipWidth: 3840,
      tileTwipHeight: 3840,
      width: 256,
      height: 256,
      encoding: 'png' as const,
      wid: 7,
    };
    const frame = encodeTileFrame(header, new Uint8Array([1, 2, 3]));
    const back = decodeTileFrame(frame);
    expect(back.header).toEqual(header);
    expect([...back.payload]).toEqual([1, 2, 3]);
    expect(() => decodeTileFrame(frame.subarray(0, 10))).toThrow(/shorter/);
  });
});
