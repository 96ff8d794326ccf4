/** vnu-jar exports the path of the Nu HTML Checker's jar, to run with java -jar. */
declare module 'vnu-jar' {
  const jarPath: string;
  export default jarPath;
}
