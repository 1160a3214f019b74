import { describe, expect, it } from 'vitest';
import { applyCommentAction, commentCommands, commentDate, commentHtmlText, parseAnnotations, threads } from './comments-model.ts';
import { searchArgs, SEARCH } from './find-replace-search.ts';
import { initials } from './panels-dom.ts';
import { parseLanguage, parsePageNumber, parseWordCount } from './status-bar.ts';
import { avatarUrl } from './users.ts';

// The payloads below are what LibreOffice 7.4 sent in the daemon for corpus documents (comments.docx, comments.xlsx).
const writer = {
  comments: [
    {
      id: 1,
      parent: 0,
      author: 'Michael Williamson',
      text: 'A tachyon walks into a bar.',
      resolved: 'false',
      dateTime: '2016-07-03T15:10:00',
      anchorPos: '2194, 1724, 1, 269',
      textRange: '1724, 1724, 470, 268',
    },
    {
      id: 3,
      parent: 1,
      author: 'Unknown Author',
      text: 'reply!\n',
      resolved: 'false',
      dateTime: '2026-11-23T02:31:05,168398494',
      anchorPos: '2194, 1724, 1, 269',
      textRange: '',
    },
    {
      id: 2,
      parent: 0,
      author: 'Michael Williamson',
      text: 'Fin.',
      resolved: 'false',
      dateTime: '2016-07-03T15:12:00',
      anchorPos: '2250, 1724, 1, 269',
      textRange: '',
    },
  ],
};
const calc = { comments: [{ id: 2, tab: 1, author: '', dateTime: '11/23/2026', text: 'comment top row3 (index2)\n', cellPos: '0, 510, 959, 254' }] };

describe('comments model', () => {
  it('reads .uno:ViewAnnotations of a text document and a spreadsheet', () => {
    const list = parseAnnotations(writer);
    expect(list.map((c) => [c.id, c.parent, c.text])).toEqual([
      ['1', '', 'A tachyon walks into a bar.'],
      ['3', '1', 'reply!'],
      ['2', '', 'Fin.'],
    ]);
    expect(list[0].anchor).toEqual([2194, 1724, 1, 269]);
    const [cell] = parseAnnotations(calc);
    expect(cell).toMatchObject({ id: '2', part: 1, anchor: [0, 510, 959, 254], text: 'comment top row3 (index2)' });
    expect(parseAnnotations(null)).toEqual([]);
    expect(parseAnnotations({ commandName: '.uno:ViewAnnotations' })).toEqual([]);
  });
  it('reads LibreOffice 25.2 answers: Writer html and parentId, Impress comments keyed by name', () => {
    // What LibreOffice 25.2.3 answered for comments.docx after a reply (.uno:ReplyComment) and a new comment,
    // and for Presentation1.odp after .uno:InsertAnnotation (probed through the addon).
    const writer25 = {
      comments: [
        {
          id: 1,
          parentId: 0,
          author: 'Michael Williamson',
          html: '<div>A tachyon walks into a bar.</div>',
          resolved: 'false',
          dateTime: '2016-07-03T15:10:00',
          anchorPos: '2193, 1724, 1, 269',
          textRange: '1724, 1724, 469, 268',
          layoutStatus: 1,
        },
        {
          id: 3,
          parentId: 1,
          author: 'Probe',
          html: '<div>x &lt;b&gt; y</div>',
          resolved: 'false',
          dateTime: '2026-11-26T00:18:23,101806603',
          anchorPos: '2193, 1724, 1, 269',
          textRange: '',
          layoutStatus: 1,
        },
        {
          id: 4,
          parentId: 0,
          author: 'Probe',
          html: '<div>a &lt; b &amp; c &quot;q&quot;</div><div>second line</div>',
          resolved: 'false',
          dateTime: '',
          anchorPos: '1724, 1724, 1, 269',
          textRange: '',
          layoutStatus: 1,
        },
      ],
    };
    const list = parseAnnotations(writer25);
    expect(list.map((c) => [c.id, c.parent, c.text])).toEqual([
      ['1', '', 'A tachyon walks into a bar.'],
      ['3', '1', 'x <b> y'],
      ['4', '', 'a < b & c "q"\nsecond line'],
    ]);
    expect(threads(list).map((t) => [t.root.id, t.replies.map((r) => r.id)])).toEqual([
      ['1', ['3']],
      ['4', []],
    ]);
    // The COMMENT callback of the reply (strings throughout).
    const added = applyCommentAction([], 'Add', {
      action: 'Add',
      id: '3',
      parentId: '1',
      author: 'Probe',
      html: '<div>x &lt;b&gt; y</div>',
      resolved: 'false',
      layoutStatus: '1',
    });
    expect(added).toMatchObject([{ id: '3', parent: '1', text: 'x <b> y' }]);
    const impress = {
      comments: {
        comment31: { id: 31, author: 'Probe', dateTime: '2026-11-26T00:18:01', text: 'a < b & c "q"\nsecond line', parthash: 7, rectangle: '0, 0, 318, 278' },
      },
    };
    expect(parseAnnotations(impress)).toMatchObject([{ id: '31', text: 'a < b & c "q"\nsecond line', anchor: [0, 0, 318, 278] }]);
  });
  it('takes the text out of comment html', () => {
    expect(commentHtmlText('<div>one<br/>two</div><div><b>bold</b> &#233;t&#xE9;&nbsp;!</div>\n')).toBe('one\ntwo\nbold été\u00a0!');
    expect(commentHtmlText('<p>&unknown; &amp;lt;</p>')).toBe('&unknown; &lt;');
    expect(commentHtmlText('')).toBe('');
  });
  it('groups replies under their root, replies of replies included', () => {
    const list = parseAnnotations({ comments: [...writer.comments, { id: 4, parent: 3, author: 'B', text: 'deeper', dateTime: '' }] });
    expect(threads(list).map((t) => [t.root.id, t.replies.map((r) => r.id)])).toEqual([
      ['1', ['3', '4']],
      ['2', []],
    ]);
  });
  it('applies Add, Modify, Resolve and Remove', () => {
    let list = parseAnnotations(writer);
    list = applyCommentAction(list, 'Add', { id: '7', parent: '2', author: 'A', text: 'new', dateTime: '2026-01-01T10:00:00' });
    expect(list.map((c) => c.id)).toEqual(['1', '3', '2', '7']);
    list = applyCommentAction(list, 'Modify', { id: '2', author: 'Michael Williamson', text: 'Fin!' });
    expect(list.find((c) => c.id === '2')).toMatchObject({ text: 'Fin!', anchor: [2250, 1724, 1, 269], resolved: false });
    list = applyCommentAction(list, 'Resolve', { id: '2', resolved: 'true' });
    expect(list.find((c) => c.id === '2')?.resolved).toBe(true);
    list = applyCommentAction(list, 'Modify', { id: '2', text: 'Fin?' });
    expect(list.find((c) => c.id === '2')?.resolved).toBe(true);
    list = applyCommentAction(list, 'Remove', { id: '3' });
    expect(list.map((c) => c.id)).toEqual(['1', '2', '7']);
    expect(applyCommentAction(list, 'Add', { text: 'no id' })).toBe(list);
  });
  it('reads LibreOffice dates (comma and nanoseconds) and keeps unknown ones out', () => {
    expect(commentDate('2026-11-23T02:31:05,168398494')?.getMilliseconds()).toBe(168);
    expect(commentDate('2016-07-03T15:10:00')?.getFullYear()).toBe(2016);
    expect(commentDate('not a date')).toBeUndefined();
    expect(commentDate('')).toBeUndefined();
  });
  it('names the UNO commands of each document type', () => {
    expect(commentCommands('text')).toMatchObject({ reply: '.uno:ReplyComment', remove: '.uno:DeleteComment', resolve: '.uno:ResolveComment' });
    expect(commentCommands('spreadsheet')).toMatchObject({ remove: '.uno:DeleteNote' });
    expect(commentCommands('spreadsheet').reply).toBeUndefined();
    expect(commentCommands('presentation')).toMatchObject({ reply: '.uno:ReplyToAnnotation', remove: '.uno:DeleteAnnotation' });
    expect(commentCommands('presentation').resolve).toBeUndefined();
  });
});

describe('status bar texts', () => {
  it('reads page numbers, word counts and languages as LibreOffice words them', () => {
    expect(parsePageNumber('Page 1 of 6')).toEqual({ page: 1, pages: 6 });
    expect(parsePageNumber('Page 2 of 6 (Page 4)')).toEqual({ page: 2, pages: 6 });
    expect(parsePageNumber('')).toBeUndefined();
    expect(parseWordCount('328 words, 2,130 characters')).toEqual({ words: '328', chars: '2,130', selected: false });
    expect(parseWordCount('Selected: 11 words, 33 characters')).toEqual({ words: '11', chars: '33', selected: true });
    expect(parseWordCount('')).toBeUndefined();
    expect(parseLanguage('English (USA);en-US')).toBe('English (USA)');
    expect(parseLanguage('*')).toBeNull();
    expect(parseLanguage('')).toBeUndefined();
  });
});

describe('search arguments', () => {
  it('builds SvxSearchItem arguments: command, direction, case and whole words', () => {
    const a = searchArgs({
      text: 'World',
      replace: 'Planet',
      backward: true,
      command: SEARCH.replaceAll,
      matchCase: true,
      wholeWords: true,
      start: [10.4, 20.6],
    });
    expect(a['SearchItem.SearchString']).toEqual({ type: 'string', value: 'World' });
    expect(a['SearchItem.ReplaceString']).toEqual({ type: 'string', value: 'Planet' });
    expect(a['SearchItem.Backward']).toEqual({ type: 'boolean', value: true });
    expect(a['SearchItem.Command']).toEqual({ type: 'long', value: 3 });
    expect(a['SearchItem.SearchFlags'].value).toBe(0x10);
    expect(a['SearchItem.TransliterateFlags'].value).toBe(0);
    expect(a['SearchItem.SearchStartPointX'].value).toBe(10);
    const b = searchArgs({ text: 'x', backward: false, command: SEARCH.find, matchCase: false, wholeWords: false });
    expect(b['SearchItem.TransliterateFlags'].value).toBe(0x100);
    expect(b['SearchItem.SearchFlags'].value).toBe(0);
    expect(b['SearchItem.SearchStartPointX']).toBeUndefined();
  });
});

describe('users', () => {
  it('takes http(s) and inline image avatars only, and initials of one or more names', () => {
    expect(avatarUrl({ avatar: 'https://example.org/a.png' })).toBe('https://example.org/a.png');
    expect(avatarUrl({ avatar: 'data:image/png;base64,AAAA' })).toBe('data:image/png;base64,AAAA');
    expect(avatarUrl({ avatar: 'javascript:alert(1)' })).toBeUndefined();
    expect(avatarUrl({ avatar: 42 })).toBeUndefined();
    expect(avatarUrl({})).toBeUndefined();
    expect(initials('Alice Martin')).toBe('AM');
    expect(initials('Jean-Luc de la Tour')).toBe('JT');
    expect(initials('bob')).toBe('B');
    expect(initials('  ')).toBe('?');
  });
});
