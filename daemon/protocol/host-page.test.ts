import { describe, expect, it } from 'vitest';
import { parseCssVariables, parseUiDefaults } from './host-page.ts';

// Expected values typed from Collabora Online's own white-box tests of FileServer's cssVarsToStyle and
// uiDefaultsToJSON (test/WhiteBoxTests.cpp): the same inputs must give the same variables and defaults.
describe('css_variables (Collabora format)', () => {
  it('takes --name=value tokens separated by ; and skips empty tokens', () => {
    expect(parseCssVariables('--co-somestyle-text=#123456;--co-somestyle-size=15px;')).toEqual({
      '--co-somestyle-text': '#123456',
      '--co-somestyle-size': '15px',
    });
    expect(parseCssVariables(';;--co-somestyle-text=#123456;;--co-somestyle-size=15px;;;')).toEqual({
      '--co-somestyle-text': '#123456',
      '--co-somestyle-size': '15px',
    });
  });
  it('skips a token without = and one with more than one =', () => {
    expect(parseCssVariables('--co-somestyle-text=#123456;;--co-somestyle-size=15px;--co-sometext#324;;')).toEqual({
      '--co-somestyle-text': '#123456',
      '--co-somestyle-size': '15px',
    });
    expect(parseCssVariables('--co-somestyle-text=#123456;;--some-val=3453--some-other-val=4536;;')).toEqual({ '--co-somestyle-text': '#123456' });
  });
  it('skips tokens that could leave the declaration (forbidden characters, control characters) and names that are not custom properties', () => {
    expect(parseCssVariables('--a=red}body{display:none;--b=url("x");--c=#fff')).toEqual({ '--c': '#fff' });
    expect(parseCssVariables('--a=\u0001red;color=red;--ok=1px')).toEqual({ '--ok': '1px' });
    expect(parseCssVariables('')).toEqual({});
  });
});

describe('ui_defaults (Collabora format)', () => {
  it('reads UIMode, the per-type widgets, and ignores unknown keys', () => {
    expect(parseUiDefaults(';;UIMode=notebookbar;;PresentationStatusbar=false;;TextRuler=true;;bah=ugh;;SpreadsheetSidebar=false')).toEqual({
      uiMode: 'notebookbar',
      presentation: { ShowStatusbar: false },
      text: { ShowRuler: true },
      spreadsheet: { ShowSidebar: false },
    });
    expect(parseUiDefaults('UIMode=notebookbar;PresentationStatusbar=false;TextRuler=true;bah=ugh;SpreadsheetSidebar=false;DrawingStatusbar=true')).toEqual({
      uiMode: 'notebookbar',
      presentation: { ShowStatusbar: false },
      text: { ShowRuler: true },
      spreadsheet: { ShowSidebar: false },
      drawing: { ShowStatusbar: true },
    });
  });
  it("maps compact to classic, reads UITheme and SavedUIState, and 0/False as false (the SDK examples' value)", () => {
    expect(parseUiDefaults('UIMode=compact;UITheme=dark;SavedUIState=false;TextSidebar=False;TextStatusbar=0;TextToolbar=yes')).toEqual({
      uiMode: 'classic',
      darkTheme: true,
      savedUIState: false,
      text: { ShowSidebar: false, ShowStatusbar: false, ShowToolbar: true },
    });
    expect(parseUiDefaults('UITheme=light;UIMode=bogus')).toEqual({ darkTheme: false });
  });
});
