// `npm run lint`: typescript-eslint's recommended rules and no line over 140 columns; Prettier checks the
// formatting (.prettierrc.json). The WordPress plugin's PHP and JavaScript follow WordPress's own style.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const lineLength = ['error', { code: 140, tabWidth: 2 }];
// A leading underscore names what is deliberately left unused: a rest sibling left out, a callback's position.
const unusedVars = [
  'error',
  { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'plugin-bridge/**', 'bench/results/**', 'test/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: { 'max-len': lineLength, '@typescript-eslint/no-unused-vars': unusedVars },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
      },
    },
    rules: { 'max-len': lineLength, '@typescript-eslint/no-unused-vars': unusedVars, '@typescript-eslint/no-require-imports': 'off' },
  },
);
