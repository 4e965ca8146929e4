/**
 * The Discord application's commands (contract §11.3), declared once: what `deckctl discord register` PUTs
 * to Discord's API (its documented body: discord-api-types' RESTPutAPIApplicationCommandsJSONBody, which the
 * compiler holds this to) and what the interactions endpoint answers to. Names and descriptions localised
 * for Discord's locales of the game's languages (Discord: Application Commands, "Localization"); installed
 * to servers and to users (`integration_types` 0 and 1) and usable in servers, the bot's DMs and private
 * channels (`contexts` 0, 1, 2: Discord, "Interaction Contexts").
 */
import type { ApplicationIntegrationType, InteractionContextType, RESTPutAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { COMMAND, OPTION } from './names.ts';

/** The longest text Discord lets a string option hold (its documented max_length bound). */
export const DISCORD_OPTION_CHARS = 6000;

/** Discord's locales of the game's languages, each with the text given. */
type Localised = {
  de: string;
  fr: string;
  'es-ES': string;
  'es-419': string;
  it: string;
  ja: string;
  ko: string;
  pl: string;
  'pt-BR': string;
  ru: string;
  'zh-CN': string;
  'zh-TW': string;
};
const spanish = (text: string) => ({ 'es-ES': text, 'es-419': text });

const DECK_NAMES: Localised = {
  de: 'deck',
  fr: 'deck',
  ...spanish('mazo'),
  it: 'mazzo',
  ja: 'デッキ',
  ko: '덱',
  pl: 'talia',
  'pt-BR': 'deck',
  ru: 'колода',
  'zh-CN': '卡组',
  'zh-TW': '牌組',
};
const DECK_DESCRIPTIONS: Localised = {
  de: 'Ein KARDS-Deck zeigen: Karten, Kreditkurve, Legalität und Bild',
  fr: 'Afficher un deck KARDS : cartes, courbe de kredits, légalité et image',
  ...spanish('Muestra un mazo de KARDS: cartas, curva de kréditos, legalidad e imagen'),
  it: 'Mostra un mazzo KARDS: carte, curva dei kredit, legalità e immagine',
  ja: 'KARDSのデッキを表示：カード、クレジット曲線、合法性、画像',
  ko: 'KARDS 덱 보기: 카드, 크레딧 곡선, 적합성, 이미지',
  pl: 'Pokaż talię KARDS: karty, krzywą kredytów, legalność i obraz',
  'pt-BR': 'Mostra um deck de KARDS: cartas, curva de kréditos, legalidade e imagem',
  ru: 'Показать колоду KARDS: карты, кривую кредитов, легальность и картинку',
  'zh-CN': '显示 KARDS 卡组：卡牌、费用曲线、合法性与图片',
  'zh-TW': '顯示 KARDS 牌組：卡牌、費用曲線、合法性與圖片',
};
const CODE_NAMES: Localised = {
  de: 'code',
  fr: 'code',
  ...spanish('codigo'),
  it: 'codice',
  ja: 'コード',
  ko: '코드',
  pl: 'kod',
  'pt-BR': 'codigo',
  ru: 'код',
  'zh-CN': '代码',
  'zh-TW': '代碼',
};
const CODE_DESCRIPTIONS: Localised = {
  de: 'Deckcode, kards.com-Decklink oder der Textexport des Spiels',
  fr: 'Code de deck, lien de deck kards.com ou export texte du jeu',
  ...spanish('Código de mazo, enlace de kards.com o la exportación de texto del juego'),
  it: 'Codice del mazzo, link kards.com o esportazione testuale del gioco',
  ja: 'デッキコード、kards.com のデッキリンク、またはゲームのテキスト出力',
  ko: '덱 코드, kards.com 덱 링크 또는 게임의 텍스트 내보내기',
  pl: 'Kod talii, link do talii z kards.com lub eksport tekstowy z gry',
  'pt-BR': 'Código do deck, link de deck do kards.com ou a exportação em texto do jogo',
  ru: 'Код колоды, ссылка kards.com или текстовый экспорт из игры',
  'zh-CN': '卡组代码、kards.com 卡组链接或游戏的文本导出',
  'zh-TW': '牌組代碼、kards.com 牌組連結或遊戲的文字匯出',
};
const CARD_NAMES: Localised = {
  de: 'karte',
  fr: 'carte',
  ...spanish('carta'),
  it: 'carta',
  ja: 'カード',
  ko: '카드',
  pl: 'karta',
  'pt-BR': 'carta',
  ru: 'карта',
  'zh-CN': '卡牌',
  'zh-TW': '卡牌',
};
const CARD_DESCRIPTIONS: Localised = {
  de: 'Eine KARDS-Karte: Kredits, Typ, Seltenheit, Nation',
  fr: 'Une carte KARDS : kredits, type, rareté, nation',
  ...spanish('Una carta de KARDS: kréditos, tipo, rareza, nación'),
  it: 'Una carta KARDS: kredit, tipo, rarità, nazione',
  ja: 'KARDSのカード：クレジット、種類、レアリティ、国家',
  ko: 'KARDS 카드: 크레딧, 유형, 희귀도, 국가',
  pl: 'Karta KARDS: kredyty, typ, rzadkość, nacja',
  'pt-BR': 'Uma carta de KARDS: kréditos, tipo, raridade, nação',
  ru: 'Карта KARDS: кредиты, тип, редкость, нация',
  'zh-CN': 'KARDS 卡牌：费用、类型、稀有度、国家',
  'zh-TW': 'KARDS 卡牌：費用、類型、稀有度、國家',
};
const NAME_NAMES: Localised = {
  de: 'name',
  fr: 'nom',
  ...spanish('nombre'),
  it: 'nome',
  ja: '名前',
  ko: '이름',
  pl: 'nazwa',
  'pt-BR': 'nome',
  ru: 'название',
  'zh-CN': '名称',
  'zh-TW': '名稱',
};
const NAME_DESCRIPTIONS: Localised = {
  de: 'Der Name der Karte, in jeder Sprache des Spiels',
  fr: "Le nom de la carte, dans n'importe quelle langue du jeu",
  ...spanish('El nombre de la carta, en cualquier idioma del juego'),
  it: 'Il nome della carta, in qualsiasi lingua del gioco',
  ja: 'カード名（ゲームのどの言語でも）',
  ko: '카드 이름 (게임의 어느 언어든)',
  pl: 'Nazwa karty w dowolnym języku gry',
  'pt-BR': 'O nome da carta, em qualquer idioma do jogo',
  ru: 'Название карты на любом языке игры',
  'zh-CN': '卡牌名称（游戏的任意语言）',
  'zh-TW': '卡牌名稱（遊戲的任意語言）',
};

/** Guild install and user install; in servers, the bot's DMs and private channels (group DMs, others' DMs). */
const EVERYWHERE: { integration_types: ApplicationIntegrationType[]; contexts: InteractionContextType[] } = {
  integration_types: [0, 1],
  contexts: [0, 1, 2],
};

export const COMMANDS = [
  {
    type: 1,
    name: COMMAND.deck,
    name_localizations: DECK_NAMES,
    description: 'Show a KARDS deck: its cards, kredit curve, legality and picture',
    description_localizations: DECK_DESCRIPTIONS,
    ...EVERYWHERE,
    options: [
      {
        type: 3,
        name: OPTION.code,
        name_localizations: CODE_NAMES,
        description: "A deck code, a kards.com deck link, or the game's text export",
        description_localizations: CODE_DESCRIPTIONS,
        required: true,
        max_length: DISCORD_OPTION_CHARS,
      },
    ],
  },
  {
    type: 1,
    name: COMMAND.card,
    name_localizations: CARD_NAMES,
    description: 'A KARDS card: its kredits, type, rarity and nation',
    description_localizations: CARD_DESCRIPTIONS,
    ...EVERYWHERE,
    options: [
      {
        type: 3,
        name: OPTION.name,
        name_localizations: NAME_NAMES,
        description: "The card's name, in any language of the game",
        description_localizations: NAME_DESCRIPTIONS,
        required: true,
        autocomplete: true,
        max_length: 100,
      },
    ],
  },
] satisfies RESTPutAPIApplicationCommandsJSONBody;
