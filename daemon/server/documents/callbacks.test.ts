import { describe, expect, it } from 'vitest';
import { LOK_CALLBACK_CALC_FUNCTION_LIST, LOK_CALLBACK_CELL_AUTO_FILL_AREA, LOK_CALLBACK_DOCUMENT_SIZE_CHANGED } from '../../protocol/lok-enums.ts';
import { parseFunctionList, translateCallback } from './callbacks.ts';

describe('LOK_CALLBACK_CALC_FUNCTION_LIST -> calcFunctionList', () => {
  it("reads LibreOffice's list (ScInputHandler::ShowFuncList: index, signature, description) and names each function", () => {
    // The payload's shape as LibreOffice writes it (a trailing space before the closing bracket).
    const payload =
      '[ {"index": 3, "signature": "SUM( Number 1; Number 2; ... )", "description": "Returns the sum of all arguments."}, {"index": 4, "signature": "SUMIF( Range; Criteria; Sum range )", "description": "Totals the arguments that meet the condition."} ]';
    expect(translateCallback(LOK_CALLBACK_CALC_FUNCTION_LIST, payload).message).toEqual({
      type: 'calcFunctionList',
      functions: [
        { name: 'SUM', signature: 'SUM( Number 1; Number 2; ... )', description: 'Returns the sum of all arguments.' },
        { name: 'SUMIF', signature: 'SUMIF( Range; Criteria; Sum range )', description: 'Totals the arguments that meet the condition.' },
      ],
    });
  });
  it('takes a name LibreOffice gives, a list wrapped in an object, and nothing from what is not such JSON', () => {
    expect(parseFunctionList('{"list": [{"name": "NOW", "signature": "NOW()", "description": ""}]}')).toEqual([
      { name: 'NOW', signature: 'NOW()', description: '' },
    ]);
    expect(parseFunctionList('[{"signature": "", "description": "no name"}, 5, null]')).toEqual([]);
    expect(parseFunctionList('not json')).toEqual([]);
  });
});

describe('LOK_CALLBACK_DOCUMENT_SIZE_CHANGED -> documentSize', () => {
  it('reads the size LibreOffice gives, and is a documentSize without a size when the payload is empty (25.2 after .uno:DeletePage)', () => {
    expect(translateCallback(LOK_CALLBACK_DOCUMENT_SIZE_CHANGED, '14401, 10801').message).toEqual({
      type: 'documentSize',
      width: 14401,
      height: 10801,
      parts: -1,
      partNames: [],
    });
    expect(translateCallback(LOK_CALLBACK_DOCUMENT_SIZE_CHANGED, '').message).toEqual({ type: 'documentSize', width: 0, height: 0, parts: -1, partNames: [] });
  });
});

describe('LOK_CALLBACK_CELL_AUTO_FILL_AREA -> cellAutoFillArea', () => {
  it("reads the fill handle's rectangle (twips), and null for EMPTY or an empty payload", () => {
    expect(translateCallback(LOK_CALLBACK_CELL_AUTO_FILL_AREA, '3795, 465, 90, 90').message).toEqual({ type: 'cellAutoFillArea', rect: [3795, 465, 90, 90] });
    expect(translateCallback(LOK_CALLBACK_CELL_AUTO_FILL_AREA, 'EMPTY').message).toEqual({ type: 'cellAutoFillArea', rect: null });
    expect(translateCallback(LOK_CALLBACK_CELL_AUTO_FILL_AREA, '').message).toEqual({ type: 'cellAutoFillArea', rect: null });
  });
});
